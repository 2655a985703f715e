import Foundation
import PMCache

/// The sync's step between mirroring and publishing: a fetched feed's row and items go into the
/// index, from what the sync did with each image, and the publisher then writes the feed's files
/// from the index. Publishing never sees a fetched feed or a media outcome.
struct FeedRecorder: Sendable {
    let index: PhotoIndex
    let publisher: Publisher

    struct Recorded {
        var report: FeedReport
        var failures: [ItemFailure]
    }

    /// Records a feed's rows, then has its manifest and pages written from the index. A feed whose
    /// rows would come out as they are (same digest, see `FeedContent`) and none of whose
    /// images got new files in this sync is only marked as synced: its files stay untouched.
    /// `filesWritten`: the media URLs this sync stored files for.
    func record(url: String, feed: consuming FetchedFeed, outcomes: [String: MediaOutcome],
                filesWritten: Set<String>) async throws -> Recorded {
        let key = CacheLayout.feedKey(url: url)
        let record = FeedRecord(
            key: key, url: url, kind: feed.parsed.kind.rawValue, title: feed.parsed.title, link: feed.parsed.link,
            attribution: feed.parsed.attribution, etag: feed.etag, lastModified: feed.lastModified,
            lastSync: Date().timeIntervalSince1970, imageURL: feed.parsed.image,
            imageSHA256: feed.parsed.image.flatMap { image in
                if case .stored(let sha256, _, _)? = outcomes[image] { sha256 } else { nil }
            },
            warnings: feed.parsed.warnings)
        let items = ItemRecords.make(feed: feed.parsed, outcomes: outcomes)
        var recorded = Recorded(report: FeedReport(url: url, title: feed.parsed.title), failures: [])
        recorded.report.kind = feed.parsed.kind.rawValue
        recorded.report.manifest = CacheLayout.manifestPath(feedKey: key)
        recorded.report.warnings = feed.parsed.warnings
        recorded.report.unchanged = feed.notModified
        count(items, outcomes: outcomes, into: &recorded)
        _ = consume feed
        let digest = FeedContent.digest(record: record, items: items, sizes: publisher.sizes)
        if try await isUnchanged(key, digest: digest, items: items, filesWritten: filesWritten) {
            try await index.markSynced(feedKey: key, at: record.lastSync, etag: record.etag,
                                             lastModified: record.lastModified)
            try await publisher.writeCard(try await publisher.card(record: record, items: items))
            return recorded
        }
        try await index.replaceFeed(record, items: items)
        // The pages are written from the index, the single source of truth, not from `items`.
        _ = try await publisher.writeFeedFiles(feedKey: key, updatedAt: record.lastSync)
        try await index.setContentDigest(digest, feedKey: key)
        return recorded
    }

    private func isUnchanged(_ key: String, digest: String, items: [ItemRecord], filesWritten: Set<String>) async throws -> Bool {
        guard items.allSatisfy({ $0.allMedia.allSatisfy { !filesWritten.contains($0.url) } }),
              try await index.contentDigest(feedKey: key) == digest else { return false }
        for path in [CacheLayout.manifestPath(feedKey: key), CacheLayout.jsonFeedPath(feedKey: key)] {
            guard try await publisher.cache.storage.exists(path) else { return false }
        }
        return true
    }

    private func count(_ items: [ItemRecord], outcomes: [String: MediaOutcome], into recorded: inout Recorded) {
        recorded.report.items = items.count
        var counted = Set<String>()
        for item in items {
            switch item.status {
            case .ok: recorded.report.ok += 1
            case .noImage: recorded.report.noImage += 1
            default:
                recorded.report.failed += 1
                recorded.failures.append(ItemFailure(feedURL: recorded.report.url, itemID: item.itemID,
                                                      mediaURL: item.mediaURL, reason: item.error ?? "failed"))
            }
            for media in item.moreMedia where media.status == .failed {
                recorded.report.moreImagesFailed += 1
                recorded.failures.append(ItemFailure(feedURL: recorded.report.url, itemID: item.itemID,
                                                      mediaURL: media.url, reason: media.error ?? "failed"))
            }
            for media in item.allMedia where counted.insert(media.url).inserted {
                if case .stored(_, let downloaded, _)? = outcomes[media.url] {
                    if downloaded { recorded.report.downloaded += 1 } else { recorded.report.reused += 1 }
                }
            }
        }
    }

}
