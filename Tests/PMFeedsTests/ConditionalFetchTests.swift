import Testing
import PMFeeds

@Suite struct ConditionalFetchTests {
    static let paged: [FeedKind] = [.flickrSearch, .marvel]
    static let singleDocument: [FeedKind] = [.flickrPublic, .rss, .atom, .jsonFeed]

    @Test(arguments: paged)
    func pagedAPIsAreAlwaysFetchedWhole(kind: FeedKind) {
        #expect(!kind.allowsConditionalFetch)
    }

    @Test(arguments: singleDocument)
    func singleDocumentFeedsMayBeAskedConditionally(kind: FeedKind) {
        #expect(kind.allowsConditionalFetch)
    }

    @Test func theListsAboveCoverEveryKind() {
        #expect(Set(Self.paged + Self.singleDocument) == Set(FeedKind.allCases))
    }
}
