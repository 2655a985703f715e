import Testing
import PMFeeds

@Suite struct ConditionalFetchTests {
    static let paged: [FeedKind] = [.flickrSearch, .marvel]
    static let singleDocument: [FeedKind] = [.flickrPublic, .rss, .atom, .jsonFeed]

    @Test(arguments: paged)
    func pagedAPIsRevalidateTheirFirstPageOnly(kind: FeedKind) {
        #expect(kind.conditionalFetch == .firstPage)
        #expect(kind.conditionalFetch.isConditional(pageIndex: 0))
        #expect(!kind.conditionalFetch.isConditional(pageIndex: 1), "later pages' validators are not stored")
    }

    @Test(arguments: singleDocument)
    func singleDocumentFeedsAreAskedConditionally(kind: FeedKind) {
        #expect(kind.conditionalFetch == .document)
        #expect(kind.conditionalFetch.isConditional(pageIndex: 0))
    }

    @Test func theListsAboveCoverEveryKind() {
        #expect(Set(Self.paged + Self.singleDocument) == Set(FeedKind.allCases))
    }
}
