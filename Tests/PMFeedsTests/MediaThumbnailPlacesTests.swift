import Foundation
import Testing
@testable import PMFeeds

/// Issue 24, items 1 and 2: the `media:thumbnail`s feeds put where the item-level rule did not
/// look, inside a `media:content` (a video's poster frame) or with the URL as the element's text.
@Suite struct MediaThumbnailPlacesTests {
    static let url = URL(string: "https://videos.example.org/feed.xml")!
    static let media = #"xmlns:media="http://search.yahoo.com/mrss/""#

    /// The items' media, checked to be the same read whole and streamed item by item.
    static func media(rss items: String) throws -> [[FeedMedia]] {
        try read("<rss version=\"2.0\" \(media)><channel><title>t</title>\(items)</channel></rss>")
    }

    static func read(_ document: String) throws -> [[FeedMedia]] {
        let bytes = Array(document.utf8)
        let (whole, streamed, _) = FeedStreamTests.both(bytes)
        #expect(whole == streamed)
        return try FeedParser.parse(bytes, url: url).items.map(\.media)
    }

    @Test func aVideosThumbnailInsideItsMediaContentIsTheItemsImage() throws {
        // Vimeo's shape: the content has no `url`, only a player and a thumbnail.
        let vimeo = try Self.media(rss: """
            <item><guid>v1</guid><title>A film</title>
              <media:content><media:player url="https://player.videos.example.org/1"/>
                <media:title>A film</media:title>
                <media:thumbnail url="https://i.videos.example.org/1_640.jpg" width="640" height="360"/>
              </media:content></item>
            <item><guid>v2</guid><title>Another</title>
              <media:content url="https://cdn.videos.example.org/2.mp4" type="video/mp4" medium="video">
                <media:thumbnail url="https://i.videos.example.org/2_small.jpg" width="100" height="75"/>
                <media:thumbnail url="https://i.videos.example.org/2_large.jpg" width="1280" height="720"/>
              </media:content></item>
            """)
        #expect(vimeo == [[FeedMedia(url: "https://i.videos.example.org/1_640.jpg", source: .mediaThumbnail)],
                          [FeedMedia(url: "https://i.videos.example.org/2_large.jpg", source: .mediaThumbnail)]])
    }

    @Test func insideAMediaContentOfAMediaGroupToo() throws {
        let grouped = try Self.media(rss: """
            <item><guid>g</guid><media:group>
              <media:content url="https://cdn.videos.example.org/g.webm" type="video/webm">
                <media:thumbnail url="/thumbs/g.jpg"/></media:content>
              <media:content url="https://cdn.videos.example.org/g.mp4" type="video/mp4"/>
            </media:group></item>
            """)
        #expect(grouped == [[FeedMedia(url: "https://videos.example.org/thumbs/g.jpg", source: .mediaThumbnail)]])
        let atom = try Self.read("""
            <feed xmlns="http://www.w3.org/2005/Atom" \(Self.media)><title>t</title>
            <entry><id>e</id><title>x</title><media:group><media:content medium="video">
              <media:thumbnail url="https://i.videos.example.org/e.jpg"/></media:content></media:group></entry></feed>
            """)
        #expect(atom == [[FeedMedia(url: "https://i.videos.example.org/e.jpg", source: .mediaThumbnail)]])
    }

    @Test func theThumbnailOfAnImageTakenIsNoSecondImage() throws {
        let photo = try Self.media(rss: """
            <item><guid>p</guid><media:content url="https://cdn.example.org/p.jpg" medium="image">
              <media:thumbnail url="https://cdn.example.org/p_s.jpg"/></media:content></item>
            """)
        #expect(photo == [[FeedMedia(url: "https://cdn.example.org/p.jpg", source: .mediaContent)]])
        // A picture without an address of its own has only its thumbnail to show.
        let addressless = try Self.media(rss: """
            <item><guid>q</guid><media:content medium="image"><media:thumbnail url="https://cdn.example.org/q_s.jpg"/></media:content></item>
            """)
        #expect(addressless == [[FeedMedia(url: "https://cdn.example.org/q_s.jpg", source: .mediaThumbnail)]])
    }

    @Test func aThumbnailURLGivenAsTheElementsText() throws {
        let items = try Self.media(rss: """
            <item><guid>1</guid><media:thumbnail>https://assets.example.org/covers/1.jpg?width=800</media:thumbnail></item>
            <item><guid>2</guid><media:thumbnail>
                covers/2.png
              </media:thumbnail></item>
            <item><guid>3</guid><media:thumbnail url="https://assets.example.org/attribute.jpg">https://assets.example.org/text.jpg</media:thumbnail></item>
            <item><guid>4</guid><media:content medium="video"><media:thumbnail>https://assets.example.org/4.jpg</media:thumbnail></media:content></item>
            <item><guid>5</guid><media:thumbnail>   </media:thumbnail></item>
            """)
        #expect(items == [
            [FeedMedia(url: "https://assets.example.org/covers/1.jpg?width=800", source: .mediaThumbnail)],
            [FeedMedia(url: "https://videos.example.org/covers/2.png", source: .mediaThumbnail)],
            [FeedMedia(url: "https://assets.example.org/attribute.jpg", source: .mediaThumbnail)],
            [FeedMedia(url: "https://assets.example.org/4.jpg", source: .mediaThumbnail)],
            [],
        ])
    }
}
