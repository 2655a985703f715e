import Foundation
import Testing
@testable import PMFeeds

@Suite struct RSSFeedTests {
    /// Shaped after Flickr's documented `photos_public.gne?format=rss2` output: Media RSS content
    /// and thumbnail, `urn:flickr:tags` categories, `nobody@flickr.com (name)` authors, `dc:date.Taken`.
    static let flickrRSS2 = """
    <?xml version="1.0" encoding="utf-8" standalone="yes"?>
    <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/"
         xmlns:creativeCommons="http://cyber.law.harvard.edu/rss/creativeCommonsRssModule.html" xmlns:flickr="urn:flickr:user">
      <channel>
        <title>Uploads from Dixin Yan</title>
        <link>https://www.flickr.com/photos/dixin/</link>
        <description></description>
        <pubDate>Sun, 30 Jun 2013 04:30:07 -0700</pubDate>
        <generator>https://www.flickr.com/</generator>
        <item>
          <title>Microsoft Way, Microsoft Campus</title>
          <link>https://www.flickr.com/photos/dixin/9215169916/</link>
          <description>&lt;p&gt;&lt;a href=&quot;https://www.flickr.com/people/dixin/&quot;&gt;Dixin Yan&lt;/a&gt; posted a photo:&lt;/p&gt;</description>
          <pubDate>Sun, 30 Jun 2013 04:30:07 -0700</pubDate>
          <dc:date.Taken>2011-11-02T16:45:54-08:00</dc:date.Taken>
          <author flickr:profile="https://www.flickr.com/people/dixin/">nobody@flickr.com (Dixin Yan)</author>
          <guid isPermaLink="false">tag:flickr.com,2004:/photo/9215169916</guid>
          <media:content url="https://farm3.staticflickr.com/2875/9215169916_f8fa57c3da_b.jpg" type="image/jpeg" height="681" width="1024"/>
          <media:title>Microsoft Way, Microsoft Campus</media:title>
          <media:description type="html">&lt;p&gt;Microsoft Campus&lt;/p&gt;</media:description>
          <media:thumbnail url="https://farm3.staticflickr.com/2875/9215169916_f8fa57c3da_s.jpg" height="75" width="75"/>
          <media:credit role="photographer">Dixin Yan</media:credit>
          <media:category scheme="urn:flickr:tags">microsoft redmond campus</media:category>
          <creativeCommons:license>https://creativecommons.org/licenses/by/2.0/deed.en</creativeCommons:license>
        </item>
        <item>
          <title>Thumbnail only</title>
          <link>https://www.flickr.com/photos/dixin/9215169917/</link>
          <guid isPermaLink="false">tag:flickr.com,2004:/photo/9215169917</guid>
          <media:thumbnail url="https://farm3.staticflickr.com/1/9215169917_aa_s.jpg" height="75" width="75"/>
          <media:thumbnail url="https://farm3.staticflickr.com/1/9215169917_aa_q.jpg" height="150" width="150"/>
        </item>
      </channel>
    </rss>
    """

    @Test func flickrRSS2WithMediaContent() throws {
        let feed = try FeedParser.parse(Array(Self.flickrRSS2.utf8),
                                        url: URL(string: "https://www.flickr.com/services/feeds/photos_public.gne?id=1&format=rss2")!)
        #expect(feed.kind == .rss)
        #expect(feed.title == "Uploads from Dixin Yan")
        #expect(feed.link == "https://www.flickr.com/photos/dixin/")
        #expect(feed.items.count == 2)
        let photo = feed.items[0]
        #expect(photo.id == "tag:flickr.com,2004:/photo/9215169916")
        #expect(photo.link == "https://www.flickr.com/photos/dixin/9215169916/")
        #expect(photo.mediaURL == "https://farm3.staticflickr.com/2875/9215169916_f8fa57c3da_b.jpg")
        // The thumbnail is a smaller copy of the content: not a second image.
        #expect(photo.media == [FeedMedia(url: "https://farm3.staticflickr.com/2875/9215169916_f8fa57c3da_b.jpg", source: .mediaContent)])
        #expect(photo.author == "Dixin Yan")
        #expect(photo.tags == ["microsoft", "redmond", "campus"])
        #expect(photo.published == instant(1_372_591_807))   // Sun, 30 Jun 2013 04:30:07 -0700
        #expect(photo.dateTaken == instant(1_320_281_154))   // 2011-11-02T16:45:54-08:00
        #expect(photo.description?.hasPrefix("<p><a href=\"https://www.flickr.com/people/dixin/\">") == true)
        #expect(feed.items[1].mediaURL == "https://farm3.staticflickr.com/1/9215169917_aa_q.jpg")  // largest thumbnail
    }

    static let podcastStyle = """
    <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
    <channel><title>Enclosures &amp; groups</title><link>/blog/</link>
      <item><title><![CDATA[Sunset <b>over</b> the bay]]></title><link>/posts/1</link>
        <guid>https://example.org/posts/1</guid>
        <pubDate>Sat, 07 Sep 2002 00:00:01 EST</pubDate>
        <category>sea</category><category>sunset</category><category>sea</category>
        <enclosure url="/media/talk.mp3" type="audio/mpeg" length="1"/>
        <enclosure url="/media/sunset.jpg" type="image/jpeg" length="123456"/>
      </item>
      <item><title>Group</title><link>https://example.org/posts/2</link>
        <media:group>
          <media:content url="https://cdn.example.org/v.mp4" type="video/mp4" width="1920" height="1080"/>
          <media:content url="https://cdn.example.org/small.jpg" medium="image" width="320" height="240"/>
          <media:content url="https://cdn.example.org/large.jpg" medium="image" width="1280" height="960"/>
          <media:content url="https://cdn.example.org/untyped.png"/>
        </media:group>
        <enclosure url="https://cdn.example.org/enclosure.jpg" type="image/jpeg"/>
      </item>
      <item><title>Words only</title><link>https://example.org/posts/3</link></item>
    </channel></rss>
    """

    @Test func enclosuresGroupsRelativeLinksAndItemsWithoutImage() throws {
        let feed = try FeedParser.parse(Array(Self.podcastStyle.utf8), url: URL(string: "https://example.org/feed.xml")!)
        #expect(feed.kind == .rss)
        #expect(feed.title == "Enclosures & groups")
        #expect(feed.link == "https://example.org/blog/")
        let first = feed.items[0]
        #expect(first.title == "Sunset <b>over</b> the bay")
        #expect(first.id == "https://example.org/posts/1")
        #expect(first.link == "https://example.org/posts/1")
        #expect(first.mediaURL == "https://example.org/media/sunset.jpg")
        #expect(first.tags == ["sea", "sunset"])
        #expect(first.published == instant(1_031_374_801))
        #expect(first.media.map(\.source) == [.enclosure])  // the audio enclosure is no image
        // The group's largest rendition, then the enclosure.
        #expect(feed.items[1].media == [FeedMedia(url: "https://cdn.example.org/large.jpg", source: .mediaContent),
                                        FeedMedia(url: "https://cdn.example.org/enclosure.jpg", source: .enclosure)])
        // No guid: the id is a digest of the link, the same on every parse.
        #expect(feed.items[1].id.hasPrefix("sha256-") && feed.items[1].id.count == 31)
        #expect(feed.items[2].mediaURL == nil)
        #expect(feed.items[2].noImageReason == RSSFeed.noImageReason)
        let again = try FeedParser.parse(Array(Self.podcastStyle.utf8), url: URL(string: "https://example.org/feed.xml")!)
        #expect(again.items.map(\.id) == feed.items.map(\.id))
    }

    @Test func malformedXMLNamesThePosition() {
        let error = #expect(throws: FeedError.self) {
            // Without a root element: anything with one is recovered (XMLLenientTests).
            try FeedParser.parse(Array("<?xml version=\"1.0\"?><!-- only a comment -->".utf8),
                                 url: URL(string: "https://example.org/")!)
        }
        #expect(error?.message.contains("not well-formed (line 1, column") == true)
    }
}
