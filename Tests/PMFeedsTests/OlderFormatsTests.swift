import Foundation
import Testing
@testable import PMFeeds

/// RSS 0.90, RSS 1.0, Userland-namespaced RSS 2.0, Atom 0.3, and each format's own image.
@Suite struct OlderFormatsTests {
    static let url = URL(string: "https://old.example.org/feeds/index.rdf")!

    static func parse(_ document: String, url: URL = url) throws -> ParsedFeed {
        try FeedParser.parse(Array(document.utf8), url: url)
    }

    /// Netscape's layout: channel, image and items side by side under `rdf:RDF`, all in the 0.90 namespace.
    static let rss090: String = {
        let items = (1...60).map { "<item><title>Photo \($0)</title><link>https://old.example.org/p/\($0)</link></item>" }
        return """
        <?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
          <channel><title>Mozilla Dot Org</title><link>http://www.mozilla.org</link><description>the Mozilla Organization</description></channel>
          <image><title>Mozilla</title><url>/images/moz.gif</url><link>http://www.mozilla.org</link></image>
          \(items.joined(separator: "\n"))
        </rdf:RDF>
        """
    }()

    @Test func rss090GivesAllItsItems() throws {
        let feed = try Self.parse(Self.rss090)
        #expect(feed.kind == .rss)
        #expect(feed.title == "Mozilla Dot Org")
        #expect(feed.link == "http://www.mozilla.org")
        #expect(feed.items.count == 60 && feed.invalid.isEmpty)
        #expect(feed.items[59].title == "Photo 60")
        #expect(feed.items[0].link == "https://old.example.org/p/1")
        #expect(feed.items[0].id.hasPrefix("sha256-"))
        #expect(feed.image == "https://old.example.org/images/moz.gif")
    }

    static let rss10 = """
    <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
             xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
      <channel rdf:about="https://photos.example.org/">
        <title>Photo log</title><link>https://photos.example.org/</link>
        <image rdf:resource="https://photos.example.org/logo.png"/>
        <items><rdf:Seq><rdf:li rdf:resource="https://photos.example.org/1"/></rdf:Seq></items>
      </channel>
      <image rdf:about="https://photos.example.org/logo.png"><title>Photo log</title><link>https://photos.example.org/</link></image>
      <item rdf:about="https://photos.example.org/1">
        <title>Harbour</title><link>https://photos.example.org/1</link>
        <dc:date>2004-05-01T05:12:00+02:00</dc:date><dc:subject>harbour</dc:subject>
        <description>&lt;img src="/img/harbour.jpg"&gt;</description>
      </item>
    </rdf:RDF>
    """

    @Test func rss10ItemsBesideTheChannel() throws {
        let feed = try Self.parse(Self.rss10)
        #expect(feed.title == "Photo log")
        #expect(feed.items.count == 1)
        let item = feed.items[0]
        #expect(item.link == "https://photos.example.org/1")
        #expect(item.published == instant(1_083_381_120))
        #expect(item.tags == ["harbour"])
        #expect(item.mediaURL == "https://photos.example.org/img/harbour.jpg")
        #expect(feed.image == "https://photos.example.org/logo.png")  // from rdf:about, no <url>
    }

    @Test func userlandNamespacedRSS2() throws {
        let feed = try Self.parse("""
        <rss version="2.0" xmlns="http://backend.userland.com/rss2">
          <channel><title>Scripting News</title><link>http://www.scripting.com/</link>
            <image><url>http://www.scripting.com/gifs/tinyScriptingNews.gif</url></image>
            <item><title>One</title><guid>http://www.scripting.com/2002/09/30#a1</guid>
              <enclosure url="http://www.scripting.com/pic.jpg" type="image/jpeg" length="10"/>
              <category>news</category></item>
          </channel>
        </rss>
        """)
        #expect(feed.title == "Scripting News")
        #expect(feed.items.count == 1)
        #expect(feed.items[0].id == "http://www.scripting.com/2002/09/30#a1")
        #expect(feed.items[0].tags == ["news"])
        #expect(feed.items[0].media == [FeedMedia(url: "http://www.scripting.com/pic.jpg", source: .enclosure)])
        #expect(feed.image == "http://www.scripting.com/gifs/tinyScriptingNews.gif")
    }

    static let atom03 = """
    <feed version="0.3" xmlns="http://purl.org/atom/ns#">
      <title>dive into mark</title>
      <link rel="alternate" type="text/html" href="http://diveintomark.org/"/>
      <modified>2003-12-13T18:30:02Z</modified>
      <logo>/logo.png</logo>
      <author><name>Mark Pilgrim</name></author>
      <entry>
        <title>Escaped</title>
        <link rel="alternate" type="text/html" href="http://diveintomark.org/2003/12/13/atom03"/>
        <link rel="enclosure" type="image/jpeg" href="http://diveintomark.org/enc.jpg"/>
        <id>tag:diveintomark.org,2003:3.2397</id>
        <issued>2003-12-13T08:29:29-04:00</issued>
        <modified>2003-12-13T18:30:02Z</modified>
        <content type="text/html" mode="escaped">&lt;p&gt;&lt;img src="/escaped.jpg"&gt;&lt;/p&gt;</content>
      </entry>
      <entry>
        <title>Inline XML</title><id>tag:diveintomark.org,2003:3.2398</id>
        <created>2003-12-14T10:20:30Z</created><modified>2003-12-15T00:00:00Z</modified>
        <content type="application/xhtml+xml" mode="xml"><div xmlns="http://www.w3.org/1999/xhtml"><img src="http://diveintomark.org/xml.jpg"/> words</div></content>
      </entry>
      <entry>
        <title>Base64</title><id>tag:diveintomark.org,2003:3.2399</id>
        <modified>2003-12-16T00:00:00Z</modified>
        <content type="text/html" mode="base64">PHA+PGltZyBzcmM9Imh0dHA6Ly9kaXZlaW50b21hcmsub3JnL2I2NC5qcGciPjwvcD4=</content>
      </entry>
    </feed>
    """

    @Test func atom03DatesEnclosuresAndContentModes() throws {
        let feed = try Self.parse(Self.atom03, url: URL(string: "http://diveintomark.org/atom.xml")!)
        #expect(feed.kind == .atom)
        #expect(feed.title == "dive into mark")
        #expect(feed.link == "http://diveintomark.org/")
        #expect(feed.image == "http://diveintomark.org/logo.png")
        #expect(feed.items.count == 3)
        let escaped = feed.items[0], xml = feed.items[1], base64 = feed.items[2]
        #expect(escaped.published == instant(1_071_318_569))  // issued 2003-12-13T08:29:29-04:00
        #expect(escaped.author == "Mark Pilgrim")
        #expect(escaped.media == [FeedMedia(url: "http://diveintomark.org/enc.jpg", source: .enclosure),
                                  FeedMedia(url: "http://diveintomark.org/escaped.jpg", source: .html)])
        #expect(escaped.description == #"<p><img src="/escaped.jpg"></p>"#)
        #expect(xml.published == instant(1_071_397_230))  // created 2003-12-14T10:20:30Z
        #expect(xml.mediaURL == "http://diveintomark.org/xml.jpg")
        #expect(xml.description == " words")
        #expect(base64.published == instant(1_071_532_800))  // modified 2003-12-16T00:00:00Z
        #expect(base64.description == #"<p><img src="http://diveintomark.org/b64.jpg"></p>"#)
        #expect(base64.mediaURL == "http://diveintomark.org/b64.jpg")
    }

    @Test func atomLogoThenIcon() throws {
        func image(_ head: String) throws -> String? {
            try Self.parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>\(head)</feed>",
                           url: URL(string: "https://a.example.org/feed.atom")!).image
        }
        #expect(try image("<icon>/favicon.ico</icon><logo>/logo.svg</logo>") == "https://a.example.org/logo.svg")
        #expect(try image("<icon>/favicon.ico</icon>") == "https://a.example.org/favicon.ico")
        #expect(try image("") == nil)
    }

    @Test func rssChannelImage() throws {
        let feed = try FeedImageLocationTests.rss("<title>x</title>", channel: "<image><url>/logo.png</url><title>t</title></image>")
        #expect(feed.image == "https://feeds.example.org/logo.png")
    }

    @Test func jsonFeedIconThenFavicon() throws {
        func image(_ fields: String) throws -> String? {
            try Self.parse(#"{"version": "1.1", \#(fields) "items": []}"#, url: URL(string: "https://j.example.org/feed.json")!).image
        }
        #expect(try image(#""icon": "/icon-512.png", "favicon": "/fav.png","#) == "https://j.example.org/icon-512.png")
        #expect(try image(#""favicon": "/fav.png","#) == "https://j.example.org/fav.png")
        #expect(try image("") == nil)
    }
}
