import Foundation
import Testing
@testable import PMFeeds

@Suite struct ItemIdentityTests {
    static let url = URL(string: "https://example.org/feed.xml")!

    static func rss(_ items: String) throws -> ParsedFeed {
        try FeedParser.parse(Array("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>".utf8), url: url)
    }

    @Test func itemWithNothingButTextGetsAStableContentID() throws {
        let items = """
        <item><title>Note</title><pubDate>Sat, 07 Sep 2002 00:00:01 GMT</pubDate><description>words</description></item>
        <item><title>Note</title><pubDate>Sat, 07 Sep 2002 00:00:01 GMT</pubDate><description>other words</description></item>
        <item></item>
        """
        let feed = try Self.rss(items)
        #expect(feed.invalid.isEmpty)
        #expect(feed.items.count == 3)
        let expected = FeedItemIDs.contentHashed(title: "Note", date: "Sat, 07 Sep 2002 00:00:01 GMT", description: "words")
        #expect(feed.items[0].id == expected)
        #expect(expected.hasPrefix("sha256-") && expected.count == 31)
        #expect(feed.items[1].id != feed.items[0].id)
        #expect(feed.items[2].id.hasPrefix("sha256-"))
        #expect(try Self.rss(items).items.map(\.id) == feed.items.map(\.id))
    }

    @Test func contentDigestSeparatesItsFields() {
        #expect(FeedItemIDs.contentHashed(title: "ab", date: "c", description: nil)
                != FeedItemIDs.contentHashed(title: "a", date: "bc", description: nil))
        #expect(FeedItemIDs.contentHashed(title: " a ", date: nil, description: nil)
                == FeedItemIDs.contentHashed(title: "a", date: "", description: ""))
    }

    @Test func imageURLIdentifiesAnItemWithoutGuidOrLink() throws {
        let feed = try Self.rss(#"<item><title>x</title><enclosure url="https://cdn.example.org/a.jpg" type="image/jpeg"/></item>"#)
        #expect(feed.items[0].id == FeedItemIDs.hashed(nil, "https://cdn.example.org/a.jpg"))
    }

    @Test func atomAndJSONEntriesWithoutIDAreKept() throws {
        let atom = try FeedParser.parse(Array(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><title>x</title></entry></feed>"#.utf8), url: Self.url)
        #expect(atom.items.count == 1 && atom.items[0].id.hasPrefix("sha256-"))
        let json = try FeedParser.parse(Array(#"{"version": "1.1", "items": [{"content_text": "hello"}]}"#.utf8), url: Self.url)
        #expect(json.items.count == 1 && json.items[0].id.hasPrefix("sha256-"))
    }

    @Test func theCheckNamesTheListingAndFirstReason() {
        let feed = ParsedFeed(kind: .rss, title: "t", items: [],
                              invalid: [InvalidItem(index: 0, id: nil, reason: "item 0: broken")])
        let error = #expect(throws: FeedError.self) {
            try feed.requiringReadableItems(listed: 12, "RSS document has 12 <item> elements")
        }
        #expect(error?.message == "RSS document has 12 <item> elements but none could be read: item 0: broken")
    }

    @Test func zeroItemsStaysAValidEmptyFeed() throws {
        let root = try XMLTree.parse(Array("<rss><channel><title>quiet</title></channel></rss>".utf8), baseURL: Self.url)
        #expect(try RSSFeed.read(root).items.isEmpty)
        let atom = try XMLTree.parse(Array(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>q</title></feed>"#.utf8), baseURL: Self.url)
        #expect(try AtomFeed.read(atom).items.isEmpty)
    }
}
