import Foundation
import PMCache
import PMImaging
import PMSupport

extension Publisher {
    /// Rewrites the gallery from every feed in the index: each feed's pages
    /// (`feeds/<key>/index.html`, `page-2.html`, …), then the root `index.html` that links them.
    func publishGallery() async throws {
        let base = sizes.first ?? ThumbnailSize(width: 40, height: 40)
        var feeds: [GalleryFeed] = []
        for record in try await cache.index.feeds() {
            let items = try await cache.index.items(feedKey: record.key)
            let feed = GalleryFeed(record: record, items: items, paths: try await storedPaths(for: items))
            try writeFeedPages(feed, base: base)
            feeds.append(feed)
        }
        try AtomicFile.write(Array(PageShell.icon.utf8), to: cache.layout.absolute(PageShell.iconFile))
        let html = GalleryIndexPage(feeds: feeds, base: base).render()
        try AtomicFile.write(Array(html.utf8), to: cache.layout.galleryPath)
    }

    private func writeFeedPages(_ feed: GalleryFeed, base: ThumbnailSize) throws {
        let ordered = GalleryPaging.newestFirst(feed.items)
        let pageCount = GalleryPaging.pageCount(items: ordered.count)
        let folder = cache.layout.absolute("\(CacheLayout.feedsFolder)/\(feed.record.key)")
        try AtomicFile.makeDirectories(folder)
        for page in 1...pageCount {
            let start = (page - 1) * GalleryPaging.pageSize
            let slice = ordered[start..<min(start + GalleryPaging.pageSize, ordered.count)]
            let html = FeedPage(feed: feed, items: slice, page: page, pageCount: pageCount, base: base).render()
            try AtomicFile.write(Array(html.utf8), to: cache.layout.absolute(GalleryPaging.path(feedKey: feed.record.key, page: page)))
        }
        removeStalePages(in: folder, keeping: pageCount)
    }

    /// A feed that shrank leaves pages past its new end; they would show items it no longer has.
    private func removeStalePages(in folder: String, keeping pageCount: Int) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix("page-") && name.hasSuffix(".html") {
            guard let number = Int(name.dropFirst(5).dropLast(5)), number > pageCount else { continue }
            try? FileManager.default.removeItem(atPath: "\(folder)/\(name)")
        }
    }
}
