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
            var record = record(for: item, position: position) { outcomes[$0] }
            record.itemID = uniqueID(record.itemID)
            records.append(record)
        }
        for invalid in feed.invalid {
            var record = record(for: invalid, position: feed.items.count + records.count)
            record.itemID = uniqueID(record.itemID)
            records.append(record)
        }
        return records
    }

    /// The row of one item at `position`, its images as `outcome` says (nil: not done).
    static func record(for item: FeedItem, position: Int, outcome: (String) -> MediaOutcome?) -> ItemRecord {
        let media = item.media.map { mediaRecord($0, outcome: outcome($0.url)) }
        var record = ItemRecord(
            itemID: item.id, position: position, title: item.title, link: item.link,
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
        return record
    }

    /// The row of an entry the feed listed unreadably, after every item (`position`).
    static func record(for invalid: InvalidItem, position: Int) -> ItemRecord {
        ItemRecord(itemID: invalid.id ?? "item-\(invalid.index)", position: position, title: "", link: nil, published: nil,
                   dateTaken: nil, author: nil, tags: [], description: nil, mediaURL: nil, status: .failed,
                   error: invalid.reason, sha256: nil)
    }

    private static func mediaRecord(_ media: FeedMedia, outcome: MediaOutcome?) -> MediaRecord {
        var record = MediaRecord(url: media.url, source: media.source.rawValue, status: .ok, error: nil, sha256: nil)
        switch outcome {
        case .stored(let hash, _, _)?: record.sha256 = hash
        case .failed(let reason)?, .aborted(let reason)?: (record.status, record.error) = (.failed, reason)
        case .skipped(let reason)?: (record.status, record.error) = (.skipped, reason)
        case nil: (record.status, record.error) = (.failed, "not processed: the sync was interrupted")
        }
        return record
    }
}
