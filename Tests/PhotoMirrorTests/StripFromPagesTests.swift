import Testing
@testable import PMCache
@testable import PMImaging
@testable import PhotoMirror

/// A feed's pages are written two at a time and may finish in any order; its card's strip must
/// still show its newest thumbnails, page 1's first.
@Suite struct StripFromPagesTests {
    static let base = ThumbnailSize(width: 40, height: 40)

    /// Page `number` of a feed whose items are named `p<page>-<i>`; the odd ones have no image.
    static func page(_ number: Int, items count: Int) -> GalleryFeed {
        let items = (0..<count).map { index in
            let id = "p\(number)-\(index)"
            return ItemRecord(itemID: id, position: index, title: id, link: nil, published: nil, dateTaken: nil, author: nil,
                              tags: [], description: nil, mediaURL: "https://m/\(id).jpg",
                              status: index % 2 == 0 ? .ok : .noImage, error: nil, sha256: index % 2 == 0 ? id : nil)
        }
        let paths = Dictionary(uniqueKeysWithValues: items.compactMap(\.sha256).map {
            ($0, StoredPaths(original: "originals/\($0).jpg", thumbnails: ["40x40": "thumbs/40x40/\($0).png"]))
        })
        let record = FeedRecord(key: "k", url: "https://feed.example/", kind: "rss", title: "Feed", link: nil,
                                attribution: nil, etag: nil, lastModified: nil, lastSync: 1_800_000_000)
        return GalleryFeed(record: record, items: items, paths: paths)
    }

    static func titles(_ strip: GalleryCard.Strip) -> [String] { strip.images.map(\.title) }

    /// What the strip holds after the pages in feed order, one at a time.
    static func inOrder(_ pages: [GalleryFeed]) -> [String] {
        var strip = GalleryCard.Strip(base: base)
        for page in pages {
            for item in page.items {
                guard strip.add(item, paths: page.paths) else { break }
            }
        }
        return titles(strip)
    }

    @Test(arguments: [[1, 2, 3], [2, 1, 3], [3, 2, 1], [2, 3, 1]])
    func pagesInAnyOrderFillTheStripAsInFeedOrder(order: [Int]) {
        // Three images on each page and eight in a strip: pages 1 and 2 whole, then two of page 3's.
        let pages = (1...3).map { Self.page($0, items: 6) }
        var strip = StripFromPages(base: Self.base)
        for number in order { strip.take(page: number, pages[number - 1]) }
        let expected = Self.inOrder(pages)
        #expect(Self.titles(strip.strip) == expected)
        #expect(expected.first == "p1-0")
        #expect(expected.count == GalleryCard.stripLength && expected.last == "p3-2")
    }

    @Test func aPageThatArrivesEarlyWaitsForTheOnesBeforeIt() {
        let pages = (1...2).map { Self.page($0, items: 2) }
        var strip = StripFromPages(base: Self.base)
        strip.take(page: 2, pages[1])
        #expect(strip.strip.images.isEmpty, "page 1 is not in yet")
        strip.take(page: 1, pages[0])
        #expect(Self.titles(strip.strip) == ["p1-0", "p2-0"])
    }
}
