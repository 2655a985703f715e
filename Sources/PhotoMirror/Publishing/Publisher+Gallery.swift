import Foundation
import PMCache
import PMImaging
import PMSupport

extension Publisher {
    /// Rewrites the root `index.html`, which lists every feed. `fresh` holds the cards of the
    /// feeds just published; the others are read from the index, one feed at a time.
    func publishGalleryIndex(fresh: [String: GalleryCard]) async throws {
        var cards: [GalleryCard] = []
        for record in try await cache.index.feeds() {
            if let card = fresh[record.key] {
                cards.append(card)
            } else if let feed = try await loadFeed(key: record.key) {
                cards.append(GalleryCard(feed, base: base))
            }
        }
        try AtomicFile.writeIfChanged(Array(PageShell.icon.utf8), to: cache.layout.absolute(PageShell.iconFile))
        try AtomicFile.write(GalleryIndexPage(cards: cards, base: base).render().bytes, to: cache.layout.galleryPath)
    }

    /// A feed's pages (`feeds/<key>/index.html`, `page-2.html`, …), each written only when it changed.
    func writeFeedPages(_ feed: GalleryFeed) throws {
        let ordered = GalleryPaging.newestFirst(feed.items)
        let pageCount = GalleryPaging.pageCount(items: ordered.count)
        let folder = cache.layout.absolute("\(CacheLayout.feedsFolder)/\(feed.record.key)")
        try AtomicFile.makeDirectories(folder)
        for page in 1...pageCount {
            let start = (page - 1) * GalleryPaging.pageSize
            let slice = ordered[start..<min(start + GalleryPaging.pageSize, ordered.count)]
            let html = FeedPage(feed: feed, items: slice, page: page, pageCount: pageCount, base: base).render()
            try AtomicFile.writeIfChanged(html.bytes, to: cache.layout.absolute(GalleryPaging.path(feedKey: feed.record.key, page: page)))
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
