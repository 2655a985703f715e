import Foundation
import PMCache
import PMImaging
import PMSupport

extension Publisher {
    /// Rewrites the root `index.html` from every feed's card in the storage, this writer's and any
    /// other's. A feed of this index without a card (a cache written before cards) gets one first,
    /// unless `carding` is false: a sync's feeds whose pages are not written yet have none.
    /// A feed whose first page is not there gets no card either: its first sync was stopped
    /// before its pages were written, and the card waits for them (the next sync of it), so the
    /// root page never links a page that does not exist.
    func publishGalleryIndex(carding: Bool = true) async throws {
        var cards: [String: GalleryCardFile] = [:]
        for path in try await cache.storage.files(named: GalleryCardFile.fileName, below: CacheLayout.feedsFolder) {
            if let bytes = try await cache.storage.read(path), let card = GalleryCardFile.decode(bytes) { cards[card.key] = card }
        }
        let uncarded = carding ? try await cache.index.feeds().filter { cards[$0.key] == nil } : []
        if !uncarded.isEmpty {
            let firstPages = Set(try await cache.storage.files(named: GalleryPaging.fileName(page: 1),
                                                               below: CacheLayout.feedsFolder))
            for record in uncarded where firstPages.contains(GalleryPaging.path(feedKey: record.key, page: 1)) {
                if let card = try await card(feedKey: record.key) { cards[record.key] = try await writeCard(card) }
            }
        }
        try await cache.storage.publish(PageShell.iconFile, .whenChanged) { append in try append(Array(PageShell.icon.utf8)) }
        let page = GalleryIndexPage(cards: Array(cards.values), title: galleryTitle()).render().bytes
        try await cache.storage.publish(CacheLayout.galleryFile, .always) { append in try append(page) }
    }

    /// gallery_title from the cache's config.json, else the user's; nil when neither sets it (or
    /// one cannot be read: the command that opened the cache has already said so).
    private func galleryTitle() -> String? {
        let files = SettingsFiles(cacheRoot: cache.layout.root, environment: ProcessInfo.processInfo.environment)
        return (try? files.resolve(flags: CacheConfig()))?.galleryTitle.value ?? nil
    }

    /// The icon and a root page (the cards already in the storage), before a first feed page
    /// links to them: a sync killed between its first feed's pages and the root page then leaves
    /// no link dangling. Both existing, nothing is written; `publishGalleryIndex` rewrites the
    /// root page at the end.
    func publishGalleryShell() async throws {
        let galleryExists = try await cache.storage.exists(CacheLayout.galleryFile)
        let iconExists = try await cache.storage.exists(PageShell.iconFile)
        if !galleryExists || !iconExists { try await publishGalleryIndex(carding: false) }
    }

    /// `feeds/<key>/card.json`, for the root page.
    @discardableResult
    func writeCard(_ card: GalleryCard) async throws -> GalleryCardFile {
        let file = GalleryCardFile(card, base: base)
        let bytes = file.encoded()
        try await cache.storage.publish(GalleryCardFile.path(feedKey: file.key), .whenChanged) { append in try append(bytes) }
        return file
    }

    /// Pages rendered and written at once by `writeFeedPages`: a page is read, rendered and
    /// written on one core, and one feed's pages are the last work of a sync of one feed.
    static let pagesAtOnce = 2

    /// A feed's pages (`feeds/<key>/index.html`, `page-2.html`, …), each read from the index and
    /// written only when it changed, `pagesAtOnce` at a time; returns the feed's card, whose strip
    /// comes from its first pages.
    func writeFeedPages(_ feed: PagedFeed, newest: [Int64]) async throws -> GalleryCard {
        let pages = PagedFeed.pages(of: newest, size: GalleryPaging.pageSize)
        let pageCount = GalleryPaging.pageCount(items: newest.count)
        var strip = StripFromPages(base: base)
        try await withThrowingTaskGroup(of: (Int, GalleryFeed).self) { group in
            for page in 1...pageCount {
                if page > Self.pagesAtOnce, let (done, shown) = try await group.next() { strip.take(page: done, shown) }
                let rowids = page <= pages.count ? pages[page - 1] : []
                group.addTask { (page, try await writeFeedPage(feed, rowids: rowids, page: page, pageCount: pageCount)) }
            }
            for try await (done, shown) in group { strip.take(page: done, shown) }
        }
        await removeStalePages(of: feed.record.key, keeping: pageCount)
        return GalleryCard(record: feed.record, counts: feed.counts, strip: strip.strip)
    }

    /// Page `page` of a feed, its items `rowids`; returns them as read.
    private func writeFeedPage(_ feed: PagedFeed, rowids: ArraySlice<Int64>, page: Int, pageCount: Int) async throws -> GalleryFeed {
        let shown = try await feed.page(rowids)
        let html = FeedPage(feed: shown, items: shown.items[...], page: page, pageCount: pageCount, base: base).render().bytes
        try await cache.storage.publish(GalleryPaging.path(feedKey: feed.record.key, page: page), .whenChanged) { append in
            try append(html)
        }
        return shown
    }

    /// A feed that shrank leaves pages past its new end; they would show items it no longer has.
    private func removeStalePages(of feedKey: String, keeping pageCount: Int) async {
        let folder = "\(CacheLayout.feedsFolder)/\(feedKey)"
        let stale = ((try? await cache.storage.list(folder: folder)) ?? []).filter { path in
            let name = path.dropFirst(folder.count + 1)
            guard name.hasPrefix("page-"), name.hasSuffix(".html"), let number = Int(name.dropFirst(5).dropLast(5)) else { return false }
            return number > pageCount
        }
        if !stale.isEmpty { _ = await cache.storage.remove(stale.map { CachePath($0) }) }
    }
}
