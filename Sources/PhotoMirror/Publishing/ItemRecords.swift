import PMCache
import PMFeeds

/// Turns a parsed feed and the media outcomes into the item rows the index stores. Pure.
enum ItemRecords {
    static func make(feed: ParsedFeed, outcomes: [String: MediaOutcome]) -> [ItemRecord] {
        var records: [ItemRecord] = []
        var usedIDs = Set<String>()
        func uniqueID(_ id: String) -> String {
            var candidate = id
            var counter = 2
            while !usedIDs.insert(candidate).inserted {
                candidate = "\(id)-\(counter)"
                counter += 1
            }
            return candidate
        }
        for (position, item) in feed.items.enumerated() {
            var status = "ok", error: String?, sha256: String?
            if let url = item.mediaURL {
                switch outcomes[url] {
                case .stored(let hash, _, _)?: sha256 = hash
                case .failed(let reason)?, .aborted(let reason)?: (status, error) = ("failed", reason)
                case nil: (status, error) = ("failed", "not processed: the sync was interrupted")
                }
            } else {
                (status, error) = ("no-image", item.noImageReason ?? "the feed gives no image for this item")
            }
            records.append(ItemRecord(
                itemID: uniqueID(item.id), position: position, title: item.title, link: item.link,
                published: item.published?.timeIntervalSince1970, dateTaken: item.dateTaken?.timeIntervalSince1970,
                author: item.author, tags: item.tags, description: item.description, mediaURL: item.mediaURL,
                status: status, error: error, sha256: sha256))
        }
        for invalid in feed.invalid {
            records.append(ItemRecord(
                itemID: uniqueID(invalid.id ?? "item-\(invalid.index)"), position: feed.items.count + records.count,
                title: "", link: nil, published: nil, dateTaken: nil, author: nil, tags: [], description: nil,
                mediaURL: nil, status: "failed", error: invalid.reason, sha256: nil))
        }
        return records
    }
}
