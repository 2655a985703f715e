import Foundation
import Testing
@testable import PMFeeds

/// Issue 24, item 5: an optional field of the wrong type costs that field, not the item (nor the
/// feed whose every item has it): it is read where its meaning is clear and dropped otherwise,
/// with one warning per field, however many items have it. For every JSON kind.
@Suite struct MistypedJSONFieldTests {
    static let url = URL(string: "https://json.example.org/feed.json")!

    static func read(_ document: String) throws -> ParsedFeed {
        let bytes = Array(document.utf8)
        let (whole, streamed, _) = FeedStreamTests.both(bytes)
        #expect(whole == streamed)
        return try FeedParser.parse(bytes, url: url)
    }

    @Test func aJSONFeedWhoseEveryItemHasOneMistypedFieldIsRead() throws {
        let items = (1...3).map { #"{"id": "\#($0)", "tags": "harbour", "image": "https://img.example.org/\#($0).jpg"}"# }
        let feed = try Self.read(#"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [\#(items.joined(separator: ","))]}"#)
        #expect(feed.items.map(\.id) == ["1", "2", "3"] && feed.invalid.isEmpty)
        #expect(feed.items.allSatisfy { $0.tags == ["harbour"] && $0.mediaURL != nil })
        #expect(feed.warnings == [#"item field "tags" should be an array but is a string: read as a one-element list (3 items)"#])
    }

    @Test func jsonFeedFieldsAreReadWhereTheMeaningIsClearAndDroppedElsewhere() throws {
        let feed = try Self.read(#"""
            {"version": "1.1", "items": [
              {"id": "a", "title": ["Harbour"], "url": 17, "tags": ["fog", 3, null, "sea"],
               "image": {"url": "https://img.example.org/nested.jpg"}, "content_html": "<img src=\"https://img.example.org/a.jpg\">",
               "attachments": {"url": "https://img.example.org/att.jpg", "mime_type": "image/jpeg"}},
              {"id": {"x": 1}, "title": "No id", "date_published": true, "summary": "<img src=\"https://img.example.org/b.jpg\">"}
            ]}
            """#)
        #expect(feed.invalid.isEmpty)
        try #require(feed.items.count == 2)
        let (first, second) = (feed.items[0], feed.items[1])
        #expect(first.title == "Harbour" && first.link == nil && first.tags == ["fog", "sea"])
        #expect(first.media.map(\.url) == ["https://img.example.org/att.jpg", "https://img.example.org/a.jpg"])
        #expect(second.id.hasPrefix("sha256-") && second.title == "No id" && second.published == nil)
        #expect(second.mediaURL == "https://img.example.org/b.jpg")
        #expect(feed.warnings == [
            #"item field "url" should be a string but is a number: ignored (1 item)"#,
            #"item field "tags[]" should be a string but is a number: ignored (1 item)"#,
            #"item field "title" should be a string but is an array of one: read as its string (1 item)"#,
            #"item field "attachments" should be an array but is an object: read as a one-element list (1 item)"#,
            #"item field "image" should be a string but is an object: ignored (1 item)"#,
            #"item field "date_published" should be a string but is a boolean: ignored (1 item)"#,
            #"item field "id" should be a string but is an object: ignored (1 item)"#,
        ])
    }

    @Test func flickrsPublicFeed() throws {
        let item = { (tags: String, author: String) in
            #"{"title": "p", "link": "https://www.flickr.com/photos/o/5/", "media": {"m": "https://live.staticflickr.com/1/5_m.jpg"}, "#
                + #""tags": \#(tags), "author": \#(author), "published": "2017-01-21T16:12:09Z"}"#
        }
        let feed = try Self.read(#"jsonFlickrFeed({"title": "t", "link": "https://www.flickr.com/photos/", "items": ["#
            + [item(#"["a b"]"#, "7"), item("7", #""x""#), item(#""c""#, "[]")].joined(separator: ",") + "]})")
        #expect(feed.items.map(\.tags) == [["a", "b"], [], ["c"]] && feed.invalid.isEmpty)
        #expect(feed.warnings == [
            #"item field "author" should be a string but is a number: ignored (2 items)"#,
            #"item field "tags" should be a string but is an array of one: read as its string (2 items)"#,
        ])
    }

    @Test func flickrsRESTResponses() throws {
        let feed = try Self.read(#"""
            {"photos": {"page": 1, "pages": 1, "perpage": 3, "total": 3, "photo": [
              {"id": "1", "owner": "o", "title": {"_content": "x"}, "ownername": ["Ana"], "url_m": "https://live.staticflickr.com/1/1_m.jpg"},
              {"id": "2", "owner": "o", "server": ["7"], "secret": "s", "tags": false},
              {"id": [3], "url_m": "https://live.staticflickr.com/1/3_m.jpg"}
            ]}, "stat": "ok"}
            """#)
        try #require(feed.items.map(\.id) == ["1", "2"])
        #expect(feed.items[0].title == "" && feed.items[0].author == "Ana")
        #expect(feed.items[1].mediaURL == "https://live.staticflickr.com/7/2_s.jpg")
        // An id is required: of the wrong type, the item cannot be named.
        #expect(feed.invalid.map(\.reason) == [#"item 2: "id" should be a string but is an array"#])
        #expect(feed.warnings.count == 4)
    }

    @Test func marvelsAPI() throws {
        let feed = try Self.read(#"""
            {"code": 200, "status": "Ok", "data": {"offset": 0, "limit": 2, "total": 2, "count": 2, "results": [
              {"id": 1, "name": ["Hulk"], "description": 5, "modified": "2014-01-13T14:48:32-0500",
               "thumbnail": {"path": "http://i.annihil.us/u/prod/marvel/i/mg/5/a0/538615ca33ab0", "extension": ["jpg"]},
               "urls": {"type": "detail", "url": "https://marvel.example.org/1"}},
              {"id": 2, "name": 7, "title": "Two", "thumbnail": {"path": "http://i.annihil.us/u/prod/marvel/i/mg/2/b0/2", "extension": "png"}}
            ]}}
            """#)
        try #require(feed.items.map(\.title) == ["Hulk", "Two"] && feed.invalid.isEmpty)
        #expect(feed.items[0].description == nil && feed.items[0].link == "https://marvel.example.org/1")
        #expect(feed.items.map(\.mediaURL) == ["http://i.annihil.us/u/prod/marvel/i/mg/5/a0/538615ca33ab0.jpg",
                                               "http://i.annihil.us/u/prod/marvel/i/mg/2/b0/2.png"])
        #expect(feed.warnings.count == 4)
    }
}
