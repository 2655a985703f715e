import Foundation
import Testing
@testable import PMFeeds

/// `sync --feeds FILE`: OPML and text lists, and the errors that name where a file went wrong.
@Suite struct SubscriptionListTests {
    private static let fileURL = URL(fileURLWithPath: "/home/me/lists/subscriptions.opml")

    private static func parse(_ text: String) throws(SubscriptionListError) -> [Subscription] {
        try SubscriptionList.parse(Array(text.utf8), fileURL: fileURL)
    }

    private static func error(_ text: String) -> SubscriptionListError? {
        do { _ = try parse(text) } catch { return error }
        return nil
    }

    @Test func opml2NestedThreeDeepKeepsDocumentOrder() throws {
        let list = try Self.parse("""
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Mine</title><outline xmlUrl="https://head.example/ignored"/></head>
        <body>
          <outline text="Top" type="rss" xmlUrl="https://a.example/feed"/>
          <outline text="Photos">
            <outline text="Travel">
              <outline text="Deep" title="Deep title" type="rss" xmlUrl="https://b.example/rss"/>
              <outline text="Deeper"><outline title="Fourth" xmlUrl="https://c.example/atom"/></outline>
            </outline>
          </outline>
          <outline text="Last" xmlUrl="https://d.example/feed.json"/>
        </body></opml>
        """)
        #expect(list == [
            Subscription(url: "https://a.example/feed", title: "Top"),
            Subscription(url: "https://b.example/rss", title: "Deep"),
            Subscription(url: "https://c.example/atom", title: "Fourth"),
            Subscription(url: "https://d.example/feed.json", title: "Last"),
        ])
    }

    @Test func opml1WithoutDeclarationAndTitleFallback() throws {
        let list = try Self.parse("""
        <opml version="1.0"><body>
          <outline title="Only title" xmlUrl="http://a.example/rss"/>
          <outline text="" title="Blank text" xmlUrl="http://b.example/rss"/>
          <outline xmlUrl="http://c.example/rss"/>
        </body></opml>
        """)
        #expect(list.map(\.title) == ["Only title", "Blank text", nil])
    }

    @Test func outlinesWithoutXMLURLAreSkipped() throws {
        let list = try Self.parse("""
        <opml version="2.0"><body>
          <outline text="A link" type="link" url="https://example.org/"/>
          <outline text="Empty" xmlUrl="  "/>
          <outline text="Feed" xmlurl="https://a.example/rss"/>
        </body></opml>
        """)
        #expect(list == [Subscription(url: "https://a.example/rss", title: "Feed")])
    }

    @Test func relativeXMLURLResolvesAgainstTheFile() throws {
        let list = try Self.parse("""
        <opml version="2.0"><body><outline text="Local" xmlUrl="feeds/photos.rss"/>
        <outline text="Up" xmlUrl="../up.json"/></body></opml>
        """)
        #expect(list.map(\.url) == ["file:///home/me/lists/feeds/photos.rss", "file:///home/me/up.json"])
    }

    @Test func duplicatesAreDroppedFirstKept() throws {
        let opml = try Self.parse("""
        <opml version="2.0"><body><outline text="One" xmlUrl="https://a.example/rss"/>
        <outline text="Folder"><outline text="Two" xmlUrl=" https://a.example/rss "/></outline>
        <outline text="Three" xmlUrl="https://b.example/rss"/></body></opml>
        """)
        #expect(opml == [Subscription(url: "https://a.example/rss", title: "One"),
                         Subscription(url: "https://b.example/rss", title: "Three")])
        let text = try Self.parse("https://b.example/rss\nhttps://a.example/rss\n  https://b.example/rss  \n")
        #expect(text.map(\.url) == ["https://b.example/rss", "https://a.example/rss"])
    }

    @Test func textListWithCommentsBlankLinesCRLFAndBOM() throws {
        let text = "\u{FEFF}# my feeds\r\n\r\nhttps://a.example/rss\r\n   # indented comment\r\n"
            + "http://b.example/feed?x=1#frag  # trailing comment\r\n\tfile:///srv/feed.json\r\n"
        let list = try Self.parse(text)
        #expect(list == [Subscription(url: "https://a.example/rss"),
                         Subscription(url: "http://b.example/feed?x=1#frag"),
                         Subscription(url: "file:///srv/feed.json")])
    }

    @Test(arguments: [
        ("https://a.example/rss\n\n# c\nftp://b.example/rss\n", 4),
        ("https://a.example/rss\r\nnot a url\r\n", 2),
        ("feeds/relative.rss\n", 1),
        ("https://\n", 1),
    ])
    func badLineIsNamedByNumber(text: String, line: Int) {
        let error = Self.error(text)
        #expect(error?.location == .line(line))
        #expect(error?.description.hasPrefix("line \(line): ") == true, "\(String(describing: error))")
    }

    @Test func nonOPMLRootIsRefused() {
        let error = Self.error("<rss version=\"2.0\"><channel><title>t</title></channel></rss>")
        #expect(error?.location == .element("/rss"))
        #expect(error?.message.contains("<rss>") == true)
    }

    @Test func badXMLURLNamesTheElementPath() {
        let error = Self.error("""
        <opml version="2.0"><body><outline text="ok" xmlUrl="https://a.example/"/>
        <outline text="Folder"><outline text="x"/><outline text="bad" xmlUrl="mailto:me@example.org"/></outline></body></opml>
        """)
        #expect(error?.location == .element("/opml/body/outline[2]/outline[2]"))
    }

    /// Recovery reads most sloppy OPML (as it does feeds); what it cannot read is refused whole.
    @Test(arguments: ["<!-- only a comment -->", "<?xml version=\"1.0\"?>", #"<!DOCTYPE opml [<!ENTITY a "&b;"><!ENTITY b "&a;">]><opml>&a;</opml>"#])
    func unreadableXMLIsADocumentError(text: String) {
        let error = Self.error(text)
        #expect(error?.location == .document)
        #expect(error?.message.hasPrefix("not OPML: ") == true, "\(String(describing: error))")
    }

    @Test func sloppyOPMLIsRecovered() throws {
        let list = try Self.parse("<opml version=\"2.0\"><body>\n<outline text=\"A & B\" xmlUrl=\"https://a.example/?a=1&b=2\">\n</body></opml>")
        #expect(list == [Subscription(url: "https://a.example/?a=1&b=2", title: "A & B")])
    }

    @Test func opmlWithoutBodyIsRefused() {
        #expect(Self.error("<opml version=\"1.0\"><head/></opml>")?.location == .element("/opml"))
    }

    @Test(arguments: ["", "\n\n# nothing yet\n", "<opml version=\"2.0\"><body><outline text=\"Empty folder\"/></body></opml>"])
    func emptyListHasNoFeeds(text: String) throws {
        #expect(try Self.parse(text).isEmpty)
    }

    @Test func aListFromAServerNamesNoLocalFeed() throws {
        let list = Array("http://example.org/feed.xml\nfile:///proc/self/environ\n".utf8)
        #expect(throws: SubscriptionListError.self) {
            try SubscriptionList.parse(list, fileURL: URL(string: "https://example.org/list.txt")!)
        }
        #expect(try SubscriptionList.parse(list, fileURL: URL(fileURLWithPath: "/tmp/list.txt")).count == 2)
    }
}
