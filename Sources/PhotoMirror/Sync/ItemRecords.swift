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
            let media = item.media.map { mediaRecord($0, outcomes: outcomes) }
            var record = ItemRecord(
                itemID: uniqueID(item.id), position: position, title: item.title, link: item.link,
                published: item.published?.timeIntervalSince1970, dateTaken: item.dateTaken?.timeIntervalSince1970,
                author: item.author, tags: item.tags, description: item.description, mediaURL: nil,
                status: .noImage, error: item.noImageReason ?? "the feed gives no image for this item", sha256: nil)
            if let first = media.first {
                record.mediaURL = first.url
                record.mediaSource = first.source
                record.status = first.status
                record.error = first.error
                record.sha256 = first.sha256
                record.moreMedia = Array(media.dropFirst())
            }
            records.append(record)
        }
        for invalid in feed.invalid {
            records.append(ItemRecord(
                itemID: uniqueID(invalid.id ?? "item-\(invalid.index)"), position: feed.items.count + records.count,
                title: "", link: nil, published: nil, dateTaken: nil, author: nil, tags: [], description: nil,
                mediaURL: nil, status: .failed, error: invalid.reason, sha256: nil))
        }
        return records
    }

    private static func mediaRecord(_ media: FeedMedia, outcomes: [String: MediaOutcome]) -> MediaRecord {
        var record = MediaRecord(url: media.url, source: media.source.rawValue, status: .ok, error: nil, sha256: nil)
        switch outcomes[media.url] {
        case .stored(let hash, _, _)?: record.sha256 = hash
        case .failed(let reason)?, .aborted(let reason)?: (record.status, record.error) = (.failed, reason)
        case nil: (record.status, record.error) = (.failed, "not processed: the sync was interrupted")
        }
        return record
    }
}
