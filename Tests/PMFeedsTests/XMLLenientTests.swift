import Foundation
import Testing
@testable import PMFeeds

/// Malformed documents are repaired and read again; what survives comes through, with warnings.
@Suite struct XMLLenientTests {
    private static let url = URL(string: "https://example.org/feed.xml")!

    private static func parse(_ text: String) throws(FeedError) -> ParsedFeed {
        try FeedParser.parse(Array(text.utf8), url: url)
    }

    private static func item(_ n: Int, title: String = "photo") -> String {
        "<item><title>\(title) \(n)</title><guid>g\(n)</guid><enclosure url=\"https://img.example/\(n).jpg\" type=\"image/jpeg\"/></item>"
    }

    @Test func bareAmpersandsAreReadAsText() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>Tom & Jerry &amp; co &nbsp;&</title>"
                                  + "<link>https://example.org/?a=1&b=2&amp;c=3</link>"
                                  + Self.item(1, title: "A & B &bogus;") + Self.item(2) + "</channel></rss>")
        #expect(feed.title == "Tom & Jerry & co \u{A0}&")
        #expect(feed.link == "https://example.org/?a=1&b=2&c=3")
        #expect(feed.items.map(\.title) == ["A & B &bogus; 1", "photo 2"])
        #expect(feed.items.map(\.mediaURL) == ["https://img.example/1.jpg", "https://img.example/2.jpg"])
        #expect(feed.warnings.first == "recovered from malformed XML: line 1, column 41, libxml2 error 68: xmlParseEntityRef: no name")
        #expect(feed.warnings.last == "recovered from malformed XML: read 5 bare '&' as text")
    }

    @Test func mismatchedTagsAreRecovered() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>t</title>" + Self.item(1)
                                  + "<item><title>photo 2 <b>bold</i></title><guid>g2</guid></item>" + Self.item(3)
                                  + "</channel></rss>")
        #expect(feed.items.map(\.id).contains("g1") && feed.items.map(\.id).contains("g3"))
        #expect(feed.warnings.contains { $0.contains("Opening and ending tag mismatch: b line 1 and i") }, "\(feed.warnings)")
    }

    @Test func unclosedTagsAreRecovered() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>t</title>" + Self.item(1) + Self.item(2) + "<item><title>cut")
        #expect(Array(feed.items.map(\.id).prefix(2)) == ["g1", "g2"])
        #expect(!feed.warnings.isEmpty && feed.warnings.allSatisfy { $0.hasPrefix("recovered from malformed XML") })
    }

    @Test func junkAfterTheRootIsIgnoredWithAWarning() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>t</title>" + Self.item(1) + "</channel></rss>\n"
                                  + "<b>Warning</b>: mysql_connect() in <b>/var/www/x.php</b> & more")
        #expect(feed.items.map(\.id) == ["g1"])
        #expect(feed.warnings.first?.contains("libxml2 error 5: Extra content at the end of the document") == true,
                "\(feed.warnings)")
    }

    @Test func strayLessThanAndControlCharactersAreRepaired() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>1 < 2\u{1}\u{B}</title>" + Self.item(1) + "</channel></rss>")
        #expect(feed.title == "1 < 2")
        #expect(feed.items.count == 1)
    }

    @Test func warningsAreShort() throws {
        let items = (1...20).map { Self.item($0, title: "a & b") }.joined()
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>t</title>" + items + "</channel></rss>")
        #expect(feed.items.count == 20)
        #expect(feed.warnings.count == 5)
        #expect(feed.warnings[3] == "recovered from malformed XML: 17 more errors")
        #expect(feed.warnings[4] == "recovered from malformed XML: read 20 bare '&' as text")
    }

    @Test func wellFormedDocumentsHaveNoWarnings() throws {
        #expect(try Self.parse("<rss version=\"2.0\"><channel><title>t</title>" + Self.item(1) + "</channel></rss>").warnings == [])
    }

    @Test(arguments: ["<?xml version=\"1.0\"?>\n<!-- nothing -->", "just text & more", "<?xml version=\"1.0\"?><"])
    func noRootElementIsStillAnError(document: String) {
        #expect(throws: FeedError.self) { try Self.parse(document) }
    }

    @Test func undeclaredWellKnownPrefixesMapToTheirNamespaces() throws {
        let root = try XMLTree.parse(Array(("<rss><channel><item><media:content url=\"a.jpg\" medium=\"image\"/>"
                                            + "<dc:creator>Ann</dc:creator><itunes:image href=\"i.jpg\"/><content:encoded>x</content:encoded>"
                                            + "<googleplay:image href=\"g.jpg\"/><atom:link href=\"l\"/><foo:bar/></item></channel></rss>").utf8),
                                   baseURL: Self.url)
        let item = try #require(root.child("", "channel")?.child("", "item"))
        #expect(item.child(XMLNamespace.media, "content")?.attributes["url"] == "a.jpg")
        #expect(item.childText(XMLNamespace.dublinCore, "creator") == "Ann")
        #expect(item.child(XMLNamespace.itunes, "image") != nil)
        #expect(item.childText(XMLNamespace.content, "encoded") == "x")
        #expect(item.child(XMLNamespace.googleplay, "image") != nil)
        #expect(item.child(XMLNamespace.atom, "link") != nil)
        #expect(item.child("", "foo:bar") != nil)
    }

    @Test func undeclaredMediaPrefixFeedsTheRSSMapper() throws {
        let feed = try Self.parse("<rss version=\"2.0\"><channel><title>t</title><item><guid>g</guid>"
                                  + "<media:content url=\"https://img.example/a.jpg\" medium=\"image\"/></item></channel></rss>")
        #expect(feed.items.first?.mediaURL == "https://img.example/a.jpg")
        #expect(feed.warnings.isEmpty)
    }

    @Test func hasExplicitBaseFollowsXMLBase() throws {
        let root = try XMLTree.parse(Array("<feed><a xml:base=\"http://h/d/\"><b/></a><c/></feed>".utf8), baseURL: Self.url)
        #expect(!root.hasExplicitBase)
        #expect(root.child("", "a")?.hasExplicitBase == true)
        #expect(root.child("", "a")?.child("", "b")?.hasExplicitBase == true)
        #expect(root.child("", "a")?.child("", "b")?.resolve("x.jpg") == "http://h/d/x.jpg")
        #expect(root.child("", "c")?.hasExplicitBase == false)
        #expect(root.child("", "c")?.resolve("x.jpg") == "https://example.org/x.jpg")
    }
}
