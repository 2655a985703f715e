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
    /// The files of every image, when the caller holds them (a prune): looked up, not joined.
    var known: KnownFiles?
    /// A connection of its own that a feed's documents are read through (`reading(from:)`); the
    /// cache's writer connection when nil.
    private(set) var reader: PhotoIndex?

    var base: ThumbnailSize { sizes.first ?? ThumbnailSize(width: 40, height: 40) }

    /// This publisher reading the feeds it writes through `reader`, a read-only connection to
    /// the cache's index: two feeds written at once then read their rows side by side, and
    /// beside the writer's own work, instead of one after the other on the writer's connection.
    /// What it reads must be committed: in WAL mode, each read sees the last commit.
    func reading(from reader: PhotoIndex?) -> Publisher {
        var publisher = self
        publisher.reader = reader
        return publisher
    }

    private func pagedFeed(_ key: String, counts: FeedCounts? = nil, whole: Bool = false,
                           settled: SettledItems? = nil) async throws -> PagedFeed? {
        try await PagedFeed.load(key: key, index: reader ?? cache.index, known: known, counts: counts, whole: whole,
                                 settled: settled)
    }

    /// The root page's card of a feed whose files stay as they are, from the index (its counts
    /// from the caller when it has them).
    func card(feedKey: String, counts: FeedCounts? = nil) async throws -> GalleryCard? {
        guard let feed = try await pagedFeed(feedKey, counts: counts) else { return nil }
        var strip = GalleryCard.Strip(base: base)
        for rowids in PagedFeed.pages(of: try await feed.order(newestFirst: true), size: GalleryCard.stripLength * 4) {
            let page = try await feed.page(rowids)
            for item in page.items {
                guard strip.add(item, paths: page.paths) else { break }
            }
            if strip.isFull { break }
        }
        return GalleryCard(record: feed.record, counts: feed.counts, strip: strip)
    }

    /// Rewrites a feed's manifest, JSON Feed and pages from the index, a page of items at a time;
    /// returns what the root page shows of it, or nil when the index has no such feed. `updatedAt`
    /// is the manifest's time. The pages link both files, so they are written last.
    func writeFeedFiles(feedKey: String, updatedAt: Double, settled: SettledItems? = nil) async throws -> GalleryCard? {
        guard let feed = try await pagedFeed(feedKey, whole: true, settled: settled) else { return nil }
        // The manifest and the JSON Feed are rendered side by side; both are in place before
        // the first page that links them.
        async let manifest: Void = writeManifest(feed, updatedAt: updatedAt)
        let newest = try await feed.order(newestFirst: true)
        try await writeJSONFeed(feed, newest: newest)
        try await manifest
        let card = try await writeFeedPages(feed, newest: newest)
        try await writeCard(card)
        return card
    }

    /// The manifest of a feed new to the cache whose rows are staged, not yet settled: its
    /// fields, without items, validators or image files. A feed's row needs a manifest (`verify`);
    /// this one says that nothing of the feed is mirrored yet, and an index rebuilt from it
    /// fetches the feed again in full.
    func writeFirstManifest(_ record: FeedRecord) async throws {
        var first = record
        (first.etag, first.lastModified, first.imageSHA256) = (nil, nil, nil)
        try await cache.storage.publish(CacheLayout.manifestPath(feedKey: record.key), .always) { append in
            var pieces = ManifestWriter.Pieces(feed: first, updatedAt: record.lastSync, image: nil, imageValidators: nil,
                                               primarySize: base.description)
            try append(pieces.finish())
        }
    }

    private func writeManifest(_ feed: PagedFeed, updatedAt: Double) async throws {
        let order = try await feed.order(newestFirst: false)
        try await cache.storage.publish(CacheLayout.manifestPath(feedKey: feed.record.key), .always) { append in
            var pieces = ManifestWriter.Pieces(feed: feed.record, updatedAt: updatedAt, image: feed.logo,
                                               imageValidators: feed.logoValidators, primarySize: base.description)
            for rowids in PagedFeed.pages(of: order, size: PagedFeed.pageItems) {
                let page = try await feed.page(rowids)
                for item in page.items {
                    if let piece = pieces.add(item, paths: page.paths, validators: page.validators) { try append(piece) }
                }
            }
            try append(pieces.finish())
        }
    }

    /// `feeds/<key>/feed.json`, left as it is when its bytes would not change (it carries no
    /// sync time), so its HTTP validators stay.
    private func writeJSONFeed(_ feed: PagedFeed, newest: [Int64]) async throws {
        try await cache.storage.publish(CacheLayout.jsonFeedPath(feedKey: feed.record.key), .whenChanged) { append in
            var pieces = JSONFeedWriter.Pieces(record: feed.record, logo: feed.logo, base: base)
            for rowids in PagedFeed.pages(of: newest, size: PagedFeed.pageItems) {
                let page = try await feed.page(rowids)
                for item in page.items {
                    if let piece = pieces.add(item, paths: page.paths) { try append(piece) }
                }
            }
            try append(pieces.finish())
        }
    }
}
