import Testing
@testable import PMCache
@testable import PMImaging
@testable import PhotoMirror

/// Feed pages: order, paging, srcset, placeholders, attribution — rendering over index rows.
@Suite struct GalleryPagesTests {
    static let base = ThumbnailSize(width: 40, height: 40)

    func item(_ id: String, position: Int, published: Double?, status: ItemStatus = .ok, sha: String? = nil) -> ItemRecord {
        ItemRecord(itemID: id, position: position, title: "title \(id)", link: "https://example.org/\(id)",
                   published: published, dateTaken: nil, author: nil, tags: [], description: nil,
                   mediaURL: "https://m/\(id).jpg", status: status, error: status == .failed ? "HTTP 500" : nil,
                   sha256: sha)
    }

    func record(attribution: String? = nil) -> FeedRecord {
        FeedRecord(key: "k", url: "https://feed.example/", kind: "marvel", title: "Feed", link: "https://example.org/",
                   attribution: attribution, etag: nil, lastModified: nil, lastSync: 1_800_000_000)
    }

    @Test func newestFirstThenUndatedInFeedOrder() {
        let items = [item("a", position: 0, published: 10), item("b", position: 1, published: nil),
                     item("c", position: 2, published: 30), item("d", position: 3, published: nil),
                     item("e", position: 4, published: 30)]
        #expect(GalleryPaging.newestFirst(items).map(\.itemID) == ["c", "e", "a", "b", "d"])
    }

    @Test func pagesAreNamedAndCounted() {
        #expect(GalleryPaging.pageCount(items: 0) == 1)
        #expect(GalleryPaging.pageCount(items: 200) == 1)
        #expect(GalleryPaging.pageCount(items: 201) == 2)
        #expect(GalleryPaging.pageCount(items: 10_000) == 50)
        #expect(GalleryPaging.path(feedKey: "k", page: 1) == "feeds/k/index.html")
        #expect(GalleryPaging.path(feedKey: "k", page: 7) == "feeds/k/page-7.html")
        #expect(GalleryPaging.shownPages(current: 1, count: 3) == [1, 2, 3])
        #expect(GalleryPaging.shownPages(current: 10, count: 50) == [1, nil, 8, 9, 10, 11, 12, nil, 50])
        #expect(GalleryPaging.shownPages(current: 50, count: 50) == [1, nil, 48, 49, 50])
    }

    @Test func aLargeFeedPageLinksItsNeighboursAndLazyLoadsBelowTheFold() {
        let items = (0..<450).map { item("\($0)", position: $0, published: Double(1000 - $0), sha: "s\($0)") }
        let paths = Dictionary(uniqueKeysWithValues: items.map {
            ($0.sha256!, StoredPaths(original: "originals/s/\($0.sha256!).jpg", thumbnails: ["40x40": "thumbs/40x40/s/\($0.sha256!).png"]))
        })
        let feed = GalleryFeed(record: record(), items: items, paths: paths)
        let html = FeedPage(feed: feed, items: items[200..<400], page: 2, pageCount: 3, base: Self.base).render().text
        #expect(html.components(separatedBy: "<li class=\"item\">").count - 1 == 200)
        #expect(html.contains("href=\"index.html\" rel=\"prev\""))
        #expect(html.contains("href=\"page-3.html\" rel=\"next\""))
        #expect(html.contains("<span aria-current=\"page\">2</span>"))
        // The grid's thumbnails below the fold; the viewer's originals are all lazy, one per item.
        #expect(html.components(separatedBy: "loading=\"lazy\" decoding=\"async\"").count - 1 == 200 - GalleryPaging.eagerImages)
        #expect(html.components(separatedBy: "<div class=\"lb\"").count - 1 == 200)
        #expect(html.contains("(page 2 of 3)"))
    }

    @Test func retinaSizesBecomeASrcsetOfTheSameAspect() throws {
        let stored = ["40x40": "thumbs/40x40/a/a.png", "80x80": "thumbs/80x80/a/a.png",
                      "120x120": "thumbs/120x120/a/a.png", "80x60": "thumbs/80x60/a/a.png"]
        let sources = try #require(ThumbnailSources.choose(base: Self.base, stored: stored, prefix: "../../"))
        #expect(sources.src == "../../thumbs/40x40/a/a.png")
        #expect(sources.srcset == "../../thumbs/40x40/a/a.png 1x, ../../thumbs/80x80/a/a.png 2x, ../../thumbs/120x120/a/a.png 3x")
        let single = ThumbnailSources.choose(base: Self.base, stored: ["40x40": "t/a.png"], prefix: "")
        #expect(single == ThumbnailSources(src: "t/a.png", srcset: nil))
        // Only a larger size left: still shown at the base's CSS size, at its density.
        let larger = ThumbnailSources.choose(base: Self.base, stored: ["60x60": "t/b.png"], prefix: "")
        #expect(larger == ThumbnailSources(src: "t/b.png", srcset: "t/b.png 1.5x"))
        #expect(ThumbnailSources.choose(base: Self.base, stored: ["80x60": "t/c.png"], prefix: "") == nil)
    }

    @Test func everyStatusHasAVisibleNonImageState() {
        let ok = item("ok", position: 0, published: nil, sha: "s")
        let full = StoredPaths(original: "originals/s/s.jpg", thumbnails: ["40x40": "thumbs/40x40/s/s.png"])
        #expect(ItemVisual.of(ok, paths: full, base: Self.base, prefix: "") ==
            .image(ThumbnailSources(src: "thumbs/40x40/s/s.png", srcset: nil), link: "originals/s/s.jpg"))
        let thumbOnly = StoredPaths(original: nil, thumbnails: ["40x40": "thumbs/40x40/s/s.png"])
        var evictedOriginal = ok
        evictedOriginal.status = .evictedOriginal
        #expect(ItemVisual.of(evictedOriginal, paths: thumbOnly, base: Self.base, prefix: "") ==
            .image(ThumbnailSources(src: "thumbs/40x40/s/s.png", srcset: nil), link: nil))
        let cases: [(ItemStatus, StoredPaths?, String)] = [
            (.ok, nil, "evicted"), (.evicted, nil, "evicted"), (.failed, nil, "failed"), (.noImage, nil, "no image"),
        ]
        for (status, paths, label) in cases {
            var record = ok
            record.status = status
            guard case .placeholder(let shown, _) = ItemVisual.of(record, paths: paths, base: Self.base, prefix: "") else {
                Issue.record("\(status) should be a placeholder")
                continue
            }
            #expect(shown == label)
        }
    }

    @Test func attributionAndFeedPageLinksAppear() {
        let feed = GalleryFeed(record: record(attribution: "Data provided by Marvel. © 2026 MARVEL"),
                               items: [item("1", position: 0, published: 5)], paths: [:])
        let root = GalleryIndexPage(cards: [GalleryCardFile(GalleryCard(feed, base: Self.base), base: Self.base)]).render().text
        let page = FeedPage(feed: feed, items: feed.items[...], page: 1, pageCount: 1, base: Self.base).render().text
        for html in [root, page] { #expect(html.contains("Data provided by Marvel. © 2026 MARVEL")) }
        #expect(page.contains("href=\"manifest.json\""))
        #expect(root.contains("1 item · 1 mirrored · synced <time datetime=\"2027-01-15T08:00:00Z\">2027-01-15 08:00 UTC</time>"))
    }

    @Test func flickrAuthorsShowTheirName() {
        #expect(AuthorName.display("nobody@flickr.com (\"mate-backgrounds\")") == "mate-backgrounds")
        #expect(AuthorName.display("Jane Doe") == "Jane Doe")
        #expect(AuthorName.display("  ") == nil)
        #expect(AuthorName.display(nil) == nil)
    }

    @Test func scalesMultiplyTheFirstSize() {
        let sizes = ImagingOptions.sizes([Self.base, ThumbnailSize(width: 64, height: 48)], scaledBy: [1, 2, 3])
        #expect(sizes?.map(\.description) == ["40x40", "80x80", "120x120", "64x48"])
        #expect(ImagingOptions.sizes([Self.base], scaledBy: [2])?.map(\.description) == ["40x40", "80x80"])
        #expect(ImagingOptions.sizes([Self.base], scaledBy: [0]) == nil)
        #expect(ImagingOptions.sizes([ThumbnailSize(width: 4000, height: 10)], scaledBy: [2]) == nil)
    }
}
