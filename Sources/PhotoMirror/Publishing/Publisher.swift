import Foundation
import PMCache
import PMSupport
import PMImaging

/// Writes a feed's manifest, JSON Feed, pages and card, then the gallery's root page
/// (Publisher+Gallery.swift) — each file atomically through the storage, and always from the
/// index, the single source of truth. The rows themselves are the sync's to write (`FeedRecorder`).
struct Publisher: Sendable {
    let cache: OpenCache
    let sizes: [ThumbnailSize]

    var base: ThumbnailSize { sizes.first ?? ThumbnailSize(width: 40, height: 40) }

    /// The root page's card of a feed whose files stay as they are, from the index.
    func card(feedKey: String) async throws -> GalleryCard? {
        guard let feed = try await loadFeed(key: feedKey) else { return nil }
        return GalleryCard(feed, base: base)
    }

    /// Rewrites a feed's manifest, JSON Feed and pages from the index; returns what the root
    /// page shows of it, or nil when the index has no such feed. `updatedAt` is the manifest's
    /// time. The pages link both files, so they are written last.
    func writeFeedFiles(feedKey: String, updatedAt: Double) async throws -> GalleryCard? {
        guard let feed = try await loadFeed(key: feedKey) else { return nil }
        try await writeManifest(feed, updatedAt: updatedAt)
        try await writeJSONFeed(feed)
        try await writeFeedPages(feed)
        let card = GalleryCard(feed, base: base)
        try await writeCard(card)
        return card
    }

    /// Only the manifest, from the index: a feed's first rows need one before anything else.
    func writeManifest(feedKey: String, updatedAt: Double) async throws {
        guard let feed = try await loadFeed(key: feedKey) else { return }
        try await writeManifest(feed, updatedAt: updatedAt)
    }

    private func writeManifest(_ feed: GalleryFeed, updatedAt: Double) async throws {
        try await cache.storage.publish(CacheLayout.manifestPath(feedKey: feed.record.key), .always) { append in
            try ManifestWriter.write(feed: feed.record, updatedAt: updatedAt, items: feed.items, paths: feed.paths,
                                     validators: feed.validators, primarySize: base.description, to: append)
        }
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
