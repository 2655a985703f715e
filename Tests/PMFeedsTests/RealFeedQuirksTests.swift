import Foundation
import Testing
@testable import PMFeeds

/// Shapes found in the real-feed corpus (Tests/Fixtures/RealFeeds) that the format rules alone missed.
@Suite struct RealFeedQuirksTests {
    static let url = URL(string: "http://feeds.example.org/podcast.xml")!

    func parse(_ text: String) throws -> ParsedFeed {
        try FeedParser.parse(Array(text.utf8), url: Self.url)
    }

    @Test func itemsNestedByARecoveredUnclosedTagAreStillRead() throws {
        let feed = try parse("""
        <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>P</title>
        <itunes:category text='Technology'>
        <item><title>One</title><guid>1</guid><itunes:image href="http://img.example/1.jpg"/></item>
        <item><title>Two</title><guid>2</guid></item>
        </channel></rss>
        """)
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.items[0].mediaURL == "http://img.example/1.jpg")
        #expect(!feed.warnings.isEmpty)
    }

    @Test func anAtomFeedInsideAnXHTMLPageIsFound() throws {
        let feed = try parse("""
        <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Inside</title><id>f</id>
        <entry><id>e</id><title>E</title><link rel="enclosure" type="image/png" href="http://img.example/e.png"/></entry>
        </feed></body></html>
        """)
        #expect(feed.kind == .atom && feed.title == "Inside" && feed.items.count == 1)
        #expect(feed.warnings.contains { $0.contains("XHTML page") })
    }

    @Test func anHTMLPageWithoutAFeedIsStillRefused() {
        #expect(throws: FeedError.self) {
            try parse(#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>hi</p></body></html>"#)
        }
    }

    @Test func onlyHTTPImagesAreMirrored() throws {
        let feed = try parse("""
        <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>P</title>
        <itunes:image href="file:///etc/passwd"/>
        <item><title>A</title><guid>a</guid><itunes:image href="gs://bucket/2.jpg"/>
          <enclosure url="ftp://files.example/a.jpg" type="image/jpeg"/></item>
        <item><title>B</title><guid>b</guid><enclosure url="file:///home/me/b.jpg" type="image/jpeg"/>
          <enclosure url="HTTPS://img.example/b.jpg" type="image/jpeg"/></item>
        </channel></rss>
        """)
        #expect(feed.image == nil)
        #expect(feed.items[0].media.isEmpty && feed.items[0].noImageReason != nil)
        #expect(feed.items[1].media.map(\.url) == ["HTTPS://img.example/b.jpg"])
    }

    @Test func itunesImageTakesAURLAttributeOrAURLAsTextButNotACaption() throws {
        let feed = try parse("""
        <rss xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd"><channel><title>P</title>
        <itunes:image>KCRW's Le Show</itunes:image>
        <item><guid>1</guid><itunes:image url="http://a.b/i.png"></itunes:image></item>
        <item><guid>2</guid><itunes:image>http://a.b/j.png</itunes:image></item>
        </channel></rss>
        """)
        #expect(feed.image == nil)
        #expect(feed.items.map(\.mediaURL) == ["http://a.b/i.png", "http://a.b/j.png"])
        #expect(feed.items.allSatisfy { $0.media.first?.source == .itunesImage })
    }
}
