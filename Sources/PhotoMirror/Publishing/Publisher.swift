import Foundation
import PMCache
import PMSupport
import PMImaging

/// Writes what a sync publishes: a feed's rows in the index, then its manifest, then the
/// gallery (Publisher+Gallery.swift) — each file atomically, and always from the index, the single source of truth.
struct Publisher: Sendable {
    let cache: OpenCache
    let sizes: [ThumbnailSize]

    struct Published {
        var report: FeedReport
        var failures: [ItemFailure]
    }

    func publishFeed(url: String, feed: FetchedFeed, outcomes: [String: MediaOutcome]) async throws -> Published {
        let key = CacheLayout.feedKey(url: url)
        let record = FeedRecord(
            key: key, url: url, kind: feed.parsed.kind.rawValue, title: feed.parsed.title, link: feed.parsed.link,
            attribution: feed.parsed.attribution, etag: feed.etag, lastModified: feed.lastModified,
            lastSync: Date().timeIntervalSince1970)
        let items = ItemRecords.make(feed: feed.parsed, outcomes: outcomes)
        try await cache.index.replaceFeed(record, items: items)
        let manifestPath = try await writeManifest(feedKey: key)

        var report = FeedReport(url: url, title: feed.parsed.title)
        report.kind = feed.parsed.kind.rawValue
        report.manifest = manifestPath
        report.items = items.count
        var failures: [ItemFailure] = []
        var counted = Set<String>()
        for item in items {
            switch item.status {
            case "ok": report.ok += 1
            case "no-image": report.noImage += 1
            default:
                report.failed += 1
                failures.append(ItemFailure(feedURL: url, itemID: item.itemID, mediaURL: item.mediaURL,
                                            reason: item.error ?? "failed"))
            }
            guard let media = item.mediaURL, counted.insert(media).inserted else { continue }
            if case .stored(_, let downloaded, _)? = outcomes[media] {
                if downloaded { report.downloaded += 1 } else { report.reused += 1 }
            }
        }
        return Published(report: report, failures: failures)
    }

    /// Rewrites a feed's manifest from the index; returns its path relative to the cache root.
    func writeManifest(feedKey: String) async throws -> String {
        guard let feed = try await cache.index.feed(key: feedKey) else { return "" }
        let items = try await cache.index.items(feedKey: feedKey)
        let paths = try await storedPaths(for: items)
        let manifest = ManifestBuilder.build(feed: feed, items: items, paths: paths,
                                             primarySize: sizes.first?.description ?? "40x40")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let relative = CacheLayout.manifestPath(feedKey: feedKey)
        let absolute = cache.layout.absolute(relative)
        try AtomicFile.makeDirectories((absolute as NSString).deletingLastPathComponent)
        try AtomicFile.write(try encoder.encode(manifest), to: absolute)
        return relative
    }

    /// One index call for every item, not two actor hops per image.
    func storedPaths(for items: [ItemRecord]) async throws -> [String: StoredPaths] {
        try await cache.index.files(of: Set(items.compactMap(\.sha256)))
            .mapValues { StoredPaths(original: $0.original?.path, thumbnails: $0.thumbnails.mapValues(\.path)) }
    }
}
