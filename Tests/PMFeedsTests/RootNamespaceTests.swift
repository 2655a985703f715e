import Foundation
import Testing
@testable import PMFeeds

/// Issue 24, item 4: an RSS or Atom root in a namespace its format does not define is read by its
/// element names, as feedparser reads it, with a warning.
@Suite struct RootNamespaceTests {
    static let url = URL(string: "https://news.example.org/feed")!
    static let realFeeds = FeedStreamTests.root.appendingPathComponent("Tests/Fixtures/RealFeeds/feedparser/wellformed")

    static func read(_ document: String) throws -> ParsedFeed {
        let bytes = Array(document.utf8)
        let (whole, streamed, _) = FeedStreamTests.both(bytes)
        #expect(whole == streamed)
        return try FeedParser.parse(bytes, url: url)
    }

    @Test func rssInTheSpecsAddressIsRSS() throws {
        let feed = try Self.read("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns="https://cyber.harvard.edu/rss/rss.html" xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>Harvard</title><link>https://news.example.org/</link>
            <item><title>One</title><guid>1</guid><pubDate>Tue, 01 Dec 2026 10:00:00 GMT</pubDate>
              <enclosure url="https://img.example.org/1.jpg" type="image/jpeg" length="1"/>
              <media:thumbnail url="https://img.example.org/1s.jpg"/></item>
            <item><title>Two</title><guid>2</guid><description>&lt;img src="/2.png"&gt;</description></item>
            </channel></rss>
            """)
        #expect(feed.kind == .rss && feed.title == "Harvard" && feed.link == "https://news.example.org/")
        try #require(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.items.map(\.mediaURL) == ["https://img.example.org/1.jpg", "https://news.example.org/2.png"])
        #expect(feed.items[0].published == instant(1_796_119_200))
        #expect(feed.warnings == ["the <rss> root is in namespace https://cyber.harvard.edu/rss/rss.html, which is no RSS namespace: read as RSS"])
    }

    @Test func atomWithoutItsNamespaceIsAtom() throws {
        let feed = try Self.read("""
            <feed xml:lang="en"><title>Plain</title><link href="https://news.example.org/"/>
            <entry><id>e1</id><title>E</title><updated>2026-12-01T10:00:00Z</updated>
              <link rel="enclosure" type="image/png" href="/e1.png"/></entry></feed>
            """)
        #expect(feed.kind == .atom && feed.title == "Plain" && feed.link == "https://news.example.org/")
        try #require(feed.items.map(\.mediaURL) == ["https://news.example.org/e1.png"])
        #expect(feed.items[0].published == instant(1_796_119_200))
        #expect(feed.warnings == ["the <feed> root is in no namespace, not Atom's (http://www.w3.org/2005/Atom): read as Atom"])
        // `version="0.3"` says which Atom: its `issued` is the date.
        let draft = try Self.read("""
            <feed version="0.3" xmlns="http://purl.org/echo/"><title>Echo</title>
            <entry><id>e</id><issued>2026-12-01T10:00:00Z</issued><modified>2026-12-02T10:00:00Z</modified></entry></feed>
            """)
        try #require(draft.kind == .atom && draft.items.count == 1)
        #expect(draft.items[0].published == instant(1_796_119_200))
        #expect(draft.warnings == ["the <feed> root is in namespace http://purl.org/echo, not Atom's (http://purl.org/atom/ns#): read as Atom"])
    }

    @Test func otherRootsAreStillRefused() {
        for document in [#"<channel xmlns="https://cyber.harvard.edu/rss/rss.html"><title>t</title></channel>"#,
                         #"<RSS><channel/></RSS>"#, #"<feeds><feed/></feeds>"#] {
            #expect(throws: FeedError.self, "\(document)") { try FeedParser.parse(Array(document.utf8), url: Self.url) }
        }
    }

    /// feedparser's own tests of these namespaces (Tests/Fixtures/RealFeeds/feedparser).
    @Test(arguments: ["rss/rss_namespace_1.xml", "rss/rss_namespace_3.xml", "rss/rss_namespace_4.xml",
                      "atom/atom_namespace_2.xml", "atom/atom_namespace_3.xml", "atom/atom_namespace_4.xml",
                      "atom/atom_namespace_5.xml"])
    func feedparsersNamespaceTests(_ file: String) throws {
        let feed = try FeedParser.parse(Array(try Data(contentsOf: Self.realFeeds.appendingPathComponent(file))), url: Self.url)
        #expect(feed.kind == (file.hasPrefix("rss") ? .rss : .atom))
        #expect(feed.title == (file.hasPrefix("rss") ? "" : "Example Atom"))
        #expect(feed.warnings.count == 1)
    }
}
