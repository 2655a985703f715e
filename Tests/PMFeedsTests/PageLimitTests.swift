import Testing
import PMFeeds

@Suite struct PageLimitTests {
    private let flickr = Paging.flickr(page: 1, pages: 10, perPage: 2, total: 20)
    private let marvel = Paging.marvel(offset: 0, limit: 20, total: 1559, count: 20)

    private func feed(items count: Int, paging: Paging?, kind: FeedKind = .marvel) -> ParsedFeed {
        ParsedFeed(kind: kind, title: "t", items: (0..<count).map { FeedItem(id: "\($0)", title: "item \($0)") },
                   invalid: [InvalidItem(index: 99, id: nil, reason: "kept")], paging: paging)
    }

    @Test func pageNumberedAPIsAreBoundedByMaxPages() {
        #expect(!flickr.isOffsetPaged)
        #expect(flickr.pageLimit(maxPages: 1) == 1)
        #expect(flickr.pageLimit(maxPages: 7) == 7)
    }

    @Test func offsetPagedAPIsRunToTheirTotal() {
        #expect(marvel.isOffsetPaged)
        #expect(marvel.pageLimit(maxPages: 1) == Int.max)
        #expect(marvel.pageLimit(maxPages: 7) == Int.max)
    }

    @Test func offsetPagedFeedsKeepTheFirstMaxItems() {
        let cut = feed(items: 45, paging: marvel).truncated(toItems: 30)
        #expect(cut.items.map(\.id) == (0..<30).map { "\($0)" })
        #expect(cut.invalid.count == 1, "only items are capped")
        #expect(cut.paging == marvel)
    }

    @Test func offsetPagedFeedsWithinTheCapAreUnchanged() {
        #expect(feed(items: 30, paging: marvel).truncated(toItems: 30).items.count == 30)
        #expect(feed(items: 3, paging: marvel).truncated(toItems: 30).items.count == 3)
    }

    @Test func otherFeedsAreNeverTruncated() {
        #expect(feed(items: 45, paging: flickr, kind: .flickrSearch).truncated(toItems: 30).items.count == 45)
        #expect(feed(items: 45, paging: nil, kind: .rss).truncated(toItems: 30).items.count == 45)
    }
}
