import Foundation
import Testing
@testable import PMFeeds

/// Each place real feeds put an item's image, and the order the item lists them in.
@Suite struct FeedImageLocationTests {
    static let url = URL(string: "https://feeds.example.org/photos/feed.xml")!
    static let namespaces = #"xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/" "#
        + #"xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:googleplay="http://www.google.com/schemas/play-podcasts/1.0""#

    /// The media of the one item in an RSS channel made of `channel` and `item`.
    static func rssMedia(_ item: String, channel: String = "") throws -> [FeedMedia] {
        try rss(item, channel: channel).items[0].media
    }

    static func rss(_ item: String, channel: String = "") throws -> ParsedFeed {
        let document = "<rss version=\"2.0\" \(namespaces)><channel><title>t</title>\(channel)<item><guid>g</guid>\(item)</item></channel></rss>"
        return try FeedParser.parse(Array(document.utf8), url: url)
    }

    static func atomMedia(_ entry: String) throws -> [FeedMedia] {
        let document = "<feed xmlns=\"http://www.w3.org/2005/Atom\" \(namespaces)><title>t</title><entry><id>e</id>\(entry)</entry></feed>"
        return try FeedParser.parse(Array(document.utf8), url: url).items[0].media
    }

    @Test func mediaContentFiltersAndGroups() throws {
        let media = try Self.rssMedia("""
            <media:content url="https://cdn.example.org/v.mp4" type="video/mp4"/>
            <media:content url="https://cdn.example.org/a.jpg" medium="image"/>
            <media:content url="https://cdn.example.org/typed" type="image/webp"/>
            <media:content url="https://cdn.example.org/untyped.png"/>
            <media:content url="https://cdn.example.org/untyped.mp3"/>
            <media:content url="https://cdn.example.org/song.jpg" medium="audio"/>
            <media:group>
              <media:content url="https://cdn.example.org/g-small.jpg" medium="image" width="320" height="240"/>
              <media:content url="https://cdn.example.org/g-large.jpg" medium="image" width="1280" height="960"/>
            </media:group>
            """)
        #expect(media == ["a.jpg", "typed", "untyped.png", "g-large.jpg"].map {
            FeedMedia(url: "https://cdn.example.org/" + $0, source: .mediaContent)
        })
    }

    @Test func thumbnailOnlyWithoutFullSizeFiles() throws {
        let thumbnailOnly = try Self.rssMedia("""
            <media:thumbnail url="https://cdn.example.org/t-75.jpg" width="75" height="75"/>
            <media:group><media:thumbnail url="https://cdn.example.org/t-150.jpg" width="150" height="150"/></media:group>
            """)
        #expect(thumbnailOnly == [FeedMedia(url: "https://cdn.example.org/t-150.jpg", source: .mediaThumbnail)])
        let withHTMLImage = try Self.rssMedia("""
            <description>&lt;img src="https://cdn.example.org/in-html.jpg"&gt;</description>
            <media:thumbnail url="https://cdn.example.org/t.jpg"/>
            """)
        // Another picture than the HTML's: the post's cover (see CoverImageTests).
        #expect(withHTMLImage.map(\.source) == [.mediaThumbnail, .html])
        let withEnclosure = try Self.rssMedia("""
            <enclosure url="https://cdn.example.org/full.jpg" type="image/jpeg"/>
            <media:thumbnail url="https://cdn.example.org/t.jpg"/>
            """)
        #expect(withEnclosure.map(\.source) == [.enclosure])
    }

    @Test func enclosures() throws {
        let media = try Self.rssMedia("""
            <enclosure url="/media/talk.mp3" type="audio/mpeg" length="1"/>
            <enclosure url="/media/typed" type="image/jpeg" length="1"/>
            <enclosure url="/media/untyped.JPG" length="1"/>
            <enclosure url="/media/untyped.pdf" length="1"/>
            <enclosure url="/media/wrong.jpg" type="application/pdf" length="1"/>
            """)
        #expect(media == [FeedMedia(url: "https://feeds.example.org/media/typed", source: .enclosure),
                          FeedMedia(url: "https://feeds.example.org/media/untyped.JPG", source: .enclosure)])
        let atom = try Self.atomMedia("""
            <link rel="enclosure" type="image/png" href="/a.png"/><link rel="enclosure" href="/b.gif"/>
            <link rel="enclosure" type="audio/mpeg" href="/c.mp3"/><link rel="alternate" href="/page.jpg"/>
            """)
        #expect(atom.map(\.url) == ["https://feeds.example.org/a.png", "https://feeds.example.org/b.gif"])
    }

    @Test func itunesImageItemLevelAndChannelLevel() throws {
        let feed = try Self.rss(#"<itunes:image href="https://cdn.example.org/episode.jpg"/>"#,
                                channel: #"<itunes:image href="https://cdn.example.org/show.jpg"/>"#)
        #expect(feed.items[0].media == [FeedMedia(url: "https://cdn.example.org/episode.jpg", source: .itunesImage)])
        #expect(feed.image == "https://cdn.example.org/show.jpg")
        // Only the channel has one: the item stays without an image.
        let channelOnly = try Self.rss("<title>x</title>", channel: #"<itunes:image href="https://cdn.example.org/show.jpg"/>"#)
        #expect(channelOnly.items[0].media.isEmpty)
        // An unprefixed `image` element in another namespace is no itunes:image.
        #expect(try Self.rssMedia(#"<image xmlns="urn:other" href="https://cdn.example.org/x.jpg"/>"#).isEmpty)
    }

    @Test func googleplayImage() throws {
        #expect(try Self.rssMedia(#"<googleplay:image href="https://cdn.example.org/gp.png"/>"#)
                == [FeedMedia(url: "https://cdn.example.org/gp.png", source: .googleplayImage)])
    }

    @Test func imagesInDescriptionAndContentEncoded() throws {
        let media = try Self.rssMedia("""
            <description>&lt;p&gt;&lt;img src="https://cdn.example.org/d.jpg"&gt;&lt;/p&gt;</description>
            <content:encoded><![CDATA[<p><img src="https://cdn.example.org/c.jpg"><img src="https://cdn.example.org/d.jpg"></p>]]></content:encoded>
            """)
        #expect(media == [FeedMedia(url: "https://cdn.example.org/d.jpg", source: .html),
                          FeedMedia(url: "https://cdn.example.org/c.jpg", source: .html)])
    }

    @Test func atomHTMLAndXHTMLContent() throws {
        let html = try Self.atomMedia(#"<content type="html">&lt;img src="https://cdn.example.org/h.jpg"&gt;</content>"#)
        #expect(html == [FeedMedia(url: "https://cdn.example.org/h.jpg", source: .html)])
        let xhtml = try Self.atomMedia("""
            <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p><img src="https://cdn.example.org/x1.jpg"/></p>
            <img src="https://cdn.example.org/x0.jpg" srcset="https://cdn.example.org/x2.jpg 2x"/></div></summary>
            """)
        #expect(xhtml.map(\.url) == ["https://cdn.example.org/x1.jpg", "https://cdn.example.org/x2.jpg"])
        // Plain text content: `<img` is words.
        #expect(try Self.atomMedia(#"<content type="text">use &lt;img src="a.jpg"&gt; tags</content>"#).isEmpty)
        #expect(try Self.atomMedia(#"<content>use &lt;img src="a.jpg"&gt; tags</content>"#).isEmpty)
    }

    @Test func jsonFeedContentHTMLAndSummary() throws {
        let document = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [
          {"id": "1", "url": "https://blog.example.org/posts/1/", "content_html": "<p><img src=\\"a.jpg\\"></p>",
           "summary": "<img src=\\"/b.jpg\\"> and <img src=\\"a.jpg\\">", "banner_image": "https://blog.example.org/banner.jpg",
           "image": "https://blog.example.org/main.jpg"}
        ]}
        """
        let feed = try FeedParser.parse(Array(document.utf8), url: URL(string: "https://blog.example.org/feed.json")!)
        #expect(feed.items[0].media == [
            FeedMedia(url: "https://blog.example.org/main.jpg", source: .image),
            FeedMedia(url: "https://blog.example.org/posts/1/a.jpg", source: .html),
            FeedMedia(url: "https://blog.example.org/b.jpg", source: .html),
            FeedMedia(url: "https://blog.example.org/banner.jpg", source: .bannerImage),
        ])
    }

    @Test func orderFullSizeFirstAndNoDuplicates() throws {
        let media = try Self.rssMedia("""
            <description>&lt;img src="https://cdn.example.org/full.jpg"&gt;&lt;img src="https://cdn.example.org/other.jpg"&gt;</description>
            <googleplay:image href="https://cdn.example.org/gp.jpg"/>
            <itunes:image href="https://cdn.example.org/it.jpg"/>
            <enclosure url="https://cdn.example.org/full.jpg" type="image/jpeg"/>
            <media:content url="https://cdn.example.org/mc.jpg" medium="image"/>
            <media:thumbnail url="https://cdn.example.org/thumb.jpg"/>
            """)
        #expect(media == [
            FeedMedia(url: "https://cdn.example.org/mc.jpg", source: .mediaContent),
            FeedMedia(url: "https://cdn.example.org/full.jpg", source: .enclosure),
            FeedMedia(url: "https://cdn.example.org/it.jpg", source: .itunesImage),
            FeedMedia(url: "https://cdn.example.org/gp.jpg", source: .googleplayImage),
            FeedMedia(url: "https://cdn.example.org/other.jpg", source: .html),
        ])
    }

    @Test func htmlImagesResolveAgainstItemLinkThenFeedURL() throws {
        let linked = try Self.rssMedia(#"<link>https://blog.example.org/2024/05/post.html</link><description>&lt;img src="pic.jpg"&gt;</description>"#)
        #expect(linked.map(\.url) == ["https://blog.example.org/2024/05/pic.jpg"])
        let unlinked = try Self.rssMedia(#"<description>&lt;img src="pic.jpg"&gt;</description>"#)
        #expect(unlinked.map(\.url) == ["https://feeds.example.org/photos/pic.jpg"])
    }

    @Test func explicitXMLBaseBeatsTheItemLink() throws {
        let document = """
        <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
        <entry><id>e</id><link href="https://blog.example.org/posts/1/"/>
          <content type="html" xml:base="https://static.example.org/img/">&lt;img src="pic.jpg"&gt;</content>
          <link rel="enclosure" href="enc.jpg" xml:base="https://files.example.org/"/>
        </entry></feed>
        """
        let media = try AtomFeed.read(try XMLTree.parse(Array(document.utf8), baseURL: Self.url)).items[0].media
        #expect(media.map(\.url) == ["https://files.example.org/enc.jpg", "https://static.example.org/img/pic.jpg"])
    }

    @Test func itemWithoutImage() throws {
        let feed = try Self.rss("<title>Words only</title><description>&lt;p&gt;no picture&lt;/p&gt;</description>")
        #expect(feed.items[0].media.isEmpty && feed.items[0].mediaURL == nil)
        #expect(feed.items[0].noImageReason == RSSFeed.noImageReason)
        #expect(feed.invalid.isEmpty)
    }

    @Test(.enabled(if: Fixtures.has(AtomFixtureTests.flickr))) func flickrAtomEnclosureThenContentImage() throws {
        let feed = try Fixtures.parse(AtomFixtureTests.flickr, url: "https://api.flickr.com/services/feeds/photos_public.gne")
        #expect(feed.items[0].media == [
            FeedMedia(url: "http://farm6.staticflickr.com/5257/5505589929_0eaab3b6d0_b.jpg", source: .enclosure),
            FeedMedia(url: "http://farm6.staticflickr.com/5257/5505589929_0eaab3b6d0_m.jpg", source: .html),
        ])
        #expect(feed.image == "http://l.yimg.com/g/images/buddyicon.gif")
    }
}
