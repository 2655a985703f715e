import Foundation
import Testing
@testable import PMFeeds

@Suite struct JSONFeedTests {
    static let feed = """
    {
      "version": "https://jsonfeed.org/version/1.1",
      "title": "Photo log",
      "home_page_url": "https://photos.example.org/",
      "feed_url": "https://photos.example.org/feed.json",
      "authors": [{"name": "Ana"}],
      "items": [
        {
          "id": "2024-05-01-harbour",
          "url": "/2024/05/01/harbour",
          "title": "Harbour at dawn",
          "content_html": "<p>Boats &amp; fog</p>",
          "date_published": "2024-05-01T05:12:00+02:00",
          "tags": ["harbour", "fog", "harbour"],
          "image": "https://photos.example.org/img/harbour-preview.jpg",
          "attachments": [
            {"url": "https://photos.example.org/audio/waves.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 9000000},
            {"url": "/img/harbour-1600.jpg", "mime_type": "image/jpeg", "size_in_bytes": 480000},
            {"url": "/img/harbour-3200.jpg", "mime_type": "image/jpeg", "size_in_bytes": 1900000}
          ]
        },
        {
          "id": 42,
          "url": "https://photos.example.org/42",
          "content_text": "Only a banner",
          "banner_image": "https://photos.example.org/img/banner.png",
          "date_published": "2024-05-02T10:00:00Z",
          "authors": [{"name": "Ben"}]
        },
        {"id": "no-image", "content_text": "text post"},
        {"id": "bad-tags", "tags": "harbour"}
      ]
    }
    """

    @Test func itemsImagesAndAuthors() throws {
        let parsed = try FeedParser.parse(Array(Self.feed.utf8), url: URL(string: "https://cdn.example.org/feed.json")!)
        #expect(parsed.kind == .jsonFeed)
        #expect(parsed.title == "Photo log")
        #expect(parsed.link == "https://photos.example.org/")
        #expect(parsed.items.count == 4)

        let harbour = parsed.items[0]
        #expect(harbour.id == "2024-05-01-harbour")
        // Relative URLs resolve against `feed_url`, not the address we fetched from.
        #expect(harbour.link == "https://photos.example.org/2024/05/01/harbour")
        #expect(harbour.mediaURL == "https://photos.example.org/img/harbour-3200.jpg")
        // Image attachments largest first, then `image`; the audio attachment is no image.
        #expect(harbour.media == [FeedMedia(url: "https://photos.example.org/img/harbour-3200.jpg", source: .attachment),
                                  FeedMedia(url: "https://photos.example.org/img/harbour-1600.jpg", source: .attachment),
                                  FeedMedia(url: "https://photos.example.org/img/harbour-preview.jpg", source: .image)])
        #expect(harbour.published == instant(1_714_533_120))  // 2024-05-01T05:12:00+02:00
        #expect(harbour.tags == ["harbour", "fog"])
        #expect(harbour.author == "Ana")
        #expect(harbour.description == "<p>Boats &amp; fog</p>")

        let banner = parsed.items[1]
        #expect(banner.id == "42")
        #expect(banner.mediaURL == "https://photos.example.org/img/banner.png")
        #expect(banner.author == "Ben")
        #expect(banner.description == "Only a banner")

        #expect(parsed.items[2].mediaURL == nil)
        #expect(parsed.items[2].noImageReason == JSONFeed.noImageReason)
        // A mistyped optional field costs the field, not the item.
        #expect(parsed.invalid.isEmpty)
        #expect(parsed.items[3].id == "bad-tags" && parsed.items[3].tags == ["harbour"])
        #expect(parsed.warnings == [#"item field "tags" should be an array but is a string: read as a one-element list (1 item)"#])
    }
}
