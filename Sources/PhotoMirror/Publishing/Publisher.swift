import Foundation
import PMCache
import PMSupport
import PMImaging

/// Writes what a sync publishes: a feed's rows in the index, then its manifest and pages, then
/// the gallery's root page (Publisher+Gallery.swift) — each file atomically, and always from the
/// index, the single source of truth.
struct Publisher: Sendable {
    let cache: OpenCache
    let sizes: [ThumbnailSize]

    var base: ThumbnailSize { sizes.first ?? ThumbnailSize(width: 40, height: 40) }

    struct Published {
        var report: FeedReport
        var failures: [ItemFailure]
        /// What the root page shows of the feed.
        var card: GalleryCard? = nil
    }

    /// Records a feed's rows, then writes its manifest and pages from the index. A feed whose
    /// rows would come out as they are (same digest, see `FeedContent`) and none of whose
    /// images got new files in this sync is only marked as synced: its files stay untouched.
    /// `filesWritten`: the media URLs this sync stored files for.
    func publishFeed(url: String, feed: consuming FetchedFeed, outcomes: [String: MediaOutcome],
                     filesWritten: Set<String>) async throws -> Published {
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
        var published = Published(report: FeedReport(url: url, title: feed.parsed.title), failures: [])
        published.report.kind = feed.parsed.kind.rawValue
        published.report.manifest = CacheLayout.manifestPath(feedKey: key)
        published.report.warnings = feed.parsed.warnings
        published.report.unchanged = feed.notModified
        count(items, outcomes: outcomes, into: &published)
        _ = consume feed
        let digest = FeedContent.digest(record: record, items: items, sizes: sizes)
        if try await isUnchanged(key, digest: digest, items: items, filesWritten: filesWritten) {
            try await cache.index.markSynced(feedKey: key, at: record.lastSync, etag: record.etag,
                                             lastModified: record.lastModified)
            published.card = try await card(record: record, items: items)
            return published
        }
        try await cache.index.replaceFeed(record, items: items)
        // The pages are written from the index, the single source of truth, not from `items`.
        published.card = try await writeFeedFiles(feedKey: key, updatedAt: record.lastSync)
        try await cache.index.setContentDigest(digest, feedKey: key)
        return published
    }

    private func isUnchanged(_ key: String, digest: String, items: [ItemRecord], filesWritten: Set<String>) async throws -> Bool {
        guard items.allSatisfy({ $0.allMedia.allSatisfy { !filesWritten.contains($0.url) } }),
              try await cache.index.contentDigest(feedKey: key) == digest else { return false }
        return [CacheLayout.manifestPath(feedKey: key), CacheLayout.jsonFeedPath(feedKey: key)]
            .allSatisfy { FileManager.default.fileExists(atPath: cache.layout.absolute($0)) }
    }

    /// The root page's card of an unchanged feed, from its rows as just made: every image of
    /// it was reused whole (or it would not be unchanged), so their statuses are as stored.
    /// Only the strip's newest images are looked up.
    private func card(record: FeedRecord, items: [ItemRecord]) async throws -> GalleryCard {
        let newest = GalleryPaging.newestFirst(items).lazy.filter { ItemVisual.thumbnailStatuses.contains($0.status) }
        let strip = Array(newest.prefix(GalleryCard.stripLength))
        return GalleryCard(GalleryFeed(record: record, items: items, paths: try await storedPaths(for: strip)), base: base)
    }

    private func count(_ items: [ItemRecord], outcomes: [String: MediaOutcome], into published: inout Published) {
        published.report.items = items.count
        var counted = Set<String>()
        for item in items {
            switch item.status {
            case .ok: published.report.ok += 1
            case .noImage: published.report.noImage += 1
            default:
                published.report.failed += 1
                published.failures.append(ItemFailure(feedURL: published.report.url, itemID: item.itemID,
                                                      mediaURL: item.mediaURL, reason: item.error ?? "failed"))
            }
            for media in item.moreMedia where media.status == .failed {
                published.report.moreImagesFailed += 1
                published.failures.append(ItemFailure(feedURL: published.report.url, itemID: item.itemID,
                                                      mediaURL: media.url, reason: media.error ?? "failed"))
            }
            for media in item.allMedia where counted.insert(media.url).inserted {
                if case .stored(_, let downloaded, _)? = outcomes[media.url] {
                    if downloaded { published.report.downloaded += 1 } else { published.report.reused += 1 }
                }
            }
        }
    }

    /// Rewrites a feed's manifest, JSON Feed and pages from the index; returns what the root
    /// page shows of it, or nil when the index has no such feed. `updatedAt` is the manifest's
    /// time. The pages link both files, so they are written last.
    func writeFeedFiles(feedKey: String, updatedAt: Double) async throws -> GalleryCard? {
        guard let feed = try await loadFeed(key: feedKey) else { return nil }
        try await cache.storage.publish(CacheLayout.manifestPath(feedKey: feedKey), .always) { append in
            try ManifestWriter.write(feed: feed.record, updatedAt: updatedAt, items: feed.items, paths: feed.paths,
                                     validators: feed.validators, primarySize: base.description, to: append)
        }
        try await writeJSONFeed(feed)
        try await writeFeedPages(feed)
        return GalleryCard(feed, base: base)
    }

    /// `feeds/<key>/feed.json`, left as it is when its bytes would not change (it carries no
    /// sync time), so its HTTP validators stay.
    func writeJSONFeed(_ feed: GalleryFeed) async throws {
        try await cache.storage.publish(CacheLayout.jsonFeedPath(feedKey: feed.record.key), .whenChanged) { append in
            try JSONFeedWriter.write(feed: feed, base: base, to: append)
        }
    }

    /// A feed's row, items and files as the index has them (items and files in one query).
    func loadFeed(key: String) async throws -> GalleryFeed? {
        guard let record = try await cache.index.feed(key: key) else { return nil }
        let stored = try await cache.index.feedItems(feedKey: key)
        var paths = stored.files.mapValues { StoredPaths(original: $0.original, thumbnails: $0.thumbnails) }
        if let image = record.imageSHA256, paths[image] == nil {
            paths.merge(try await storedPaths(forImages: [image])) { first, _ in first }
        }
        return GalleryFeed(record: record, items: stored.items, paths: paths, validators: stored.validators)
    }

    /// One index call for every item, not two actor hops per image.
    func storedPaths(for items: [ItemRecord]) async throws -> [String: StoredPaths] {
        try await storedPaths(forImages: Set(items.compactMap(\.sha256)))
    }

    func storedPaths(forImages hashes: Set<String>) async throws -> [String: StoredPaths] {
        try await cache.index.files(of: hashes)
            .mapValues { StoredPaths(original: $0.original?.path, thumbnails: $0.thumbnails.mapValues(\.path)) }
    }
}
