import Foundation
import Testing
@testable import PMFeeds

@Suite struct DetectionAndValidityTests {
    static let url = URL(string: "https://feeds.example.org/x")!

    private func flickrFeed(_ items: String) -> [UInt8] {
        Array(#"jsonFlickrFeed({"title":"t","link":"https://www.flickr.com/photos/","generator":"https://www.flickr.com","items":[\#(items)]})"#.utf8)
    }

    private func photo(_ id: String, tags: String = #""a b""#) -> String {
        #"{"title":"p\#(id)","link":"https://www.flickr.com/photos/o/\#(id)/","media":{"m":"https://live.staticflickr.com/1/\#(id)_s_m.jpg"},"tags":\#(tags),"published":"2017-01-21T16:12:09Z"}"#
    }

    @Test func oneBadItemFailsAloneWithAReason() throws {
        let noMedia = #"{"title":"x","link":"https://www.flickr.com/photos/o/2/","tags":""}"#
        let feed = try FeedParser.parse(flickrFeed([photo("1"), noMedia, photo("3", tags: "7"), "17", photo("5")].joined(separator: ",")), url: Self.url)
        #expect(feed.kind == .flickrPublic)
        #expect(feed.items.map(\.id) == ["1", "3", "5"])
        #expect(feed.items[0].tags == ["a", "b"])
        // A mistyped optional field costs the field, with a warning.
        #expect(feed.items[1].tags.isEmpty)
        #expect(feed.warnings == [#"item field "tags" should be a string but is a number: ignored (1 item)"#])
        #expect(feed.invalid == [
            InvalidItem(index: 1, id: "2", reason: #"item 1: "media.m" is missing"#),
            InvalidItem(index: 3, id: nil, reason: #"item 3: "title" is missing"#),
        ])
    }

    @Test func repeatedIDsAreSuffixedInFeedOrder() throws {
        let feed = try FeedParser.parse(flickrFeed([photo("9"), photo("8"), photo("9"), photo("9")].joined(separator: ",")), url: Self.url)
        #expect(feed.items.map(\.id) == ["9", "8", "9-2", "9-3"])
        // A suffix another item already owns is skipped.
        let items = ["a", "a", "a-2", "a"].map { FeedItem(id: $0, title: "") }
        #expect(FeedItemIDs.uniqued(items).map(\.id) == ["a", "a-3", "a-2", "a-4"])
    }

    @Test func linkWithoutPhotoIDFallsBackToAStableDigest() throws {
        let item = #"{"title":"x","link":"https://example.org/a","media":{"m":"https://example.org/a.jpg"}}"#
        let first = try FeedParser.parse(flickrFeed(item), url: Self.url)
        let second = try FeedParser.parse(flickrFeed(item), url: Self.url)
        #expect(first.items[0].id.hasPrefix("sha256-"))
        #expect(first.items[0].id == second.items[0].id)
    }

    @Test func flickrRESTItemWithoutAnyImageSourceIsInvalid() throws {
        let body = #"{"photos":{"page":"2","pages":"3","perpage":1,"total":3,"photo":[{"id":5,"owner":"o","title":7},{"id":"6","owner":"o","url_c":"https://live.staticflickr.com/1/6_x_c.jpg","url_o":"https://live.staticflickr.com/1/6_y_o.jpg","url_s":42,"server":"1","secret":"x","dateupload":"1485015129","tags":"x y"}]},"stat":"ok"}"#
        let feed = try FeedParser.parse(Array(body.utf8), url: Self.url)
        #expect(feed.paging == .flickr(page: 2, pages: 3, perPage: 1, total: 3))
        #expect(feed.invalid.map(\.reason) == [#"item 0: no url_* extra and no "server"/"secret" to build the image URL from"#])
        #expect(feed.items.map(\.mediaURL) == ["https://live.staticflickr.com/1/6_x_c.jpg"])
        #expect(feed.items[0].published == instant(1_485_015_129))
        #expect(feed.items[0].tags == ["x", "y"])
    }

    @Test func marvelErrorEnvelopeThrows() {
        let error = #expect(throws: FeedError.self) {
            try FeedParser.parse(Array(#"{"code":"InvalidCredentials","message":"The passed API key is invalid."}"#.utf8), url: Self.url)
        }
        #expect(error?.message == "Marvel API error InvalidCredentials: The passed API key is invalid.")
    }

    @Test func unrecognizedInputSaysWhatArrivedAndWhatIsSupported() {
        let html = Array("<!DOCTYPE html>\n<html><head><title>Rate limited \u{1B}[31m</title></head></html>".utf8)
        let error = #expect(throws: FeedError.self) {
            try FeedParser.parse(html, url: Self.url, contentType: "text/html; charset=utf-8")
        }
        let message = error?.message ?? ""
        #expect(message.hasPrefix(#"unrecognized feed: received content type "text/html; charset=utf-8", 75 bytes starting "<!DOCTYPE html>\n<html><head><title>Rate …"; it is an HTML page, not a feed."#))
        for kind in FeedKind.allCases { #expect(message.contains(kind.displayName)) }
        #expect(!message.contains("\u{1B}"))
    }

    @Test(arguments: [
        ("", "the body is empty"),
        ("\u{1}\u{FF}binary", "neither JSON, JSONP nor XML"),
        (#"{"hello":"world"}"#, "JSON object with keys [hello]"),
        ("[1,2]", "top level is an array"),
        (#"<svg xmlns="http://www.w3.org/2000/svg"/>"#, "root element <svg> in namespace http://www.w3.org/2000/svg"),
    ])
    func otherUnrecognizedInputs(text: String, detail: String) {
        let error = #expect(throws: FeedError.self) { try FeedParser.parse(Array(text.utf8), url: Self.url) }
        #expect(error?.message.hasPrefix("unrecognized feed: received") == true)
        #expect(error?.message.contains(detail) == true)
    }

    @Test func escapingShowsControlAndNonASCIIBytesAsHex() {
        #expect(FeedDetector.escaped([0x41, 0x1B, 0x22, 0x5C, 0xC3, 0xA9, 0x0A], limit: 40) == #"A\x1b\"\\\xc3\xa9\n"#)
    }

    @Test func brokenJSONIsReportedNotMisdetected() {
        let error = #expect(throws: FeedError.self) { try FeedParser.parse(Array(#"{"items":[1,}"#.utf8), url: Self.url) }
        #expect(error?.message.hasPrefix("the JSON body is not valid JSON") == true)
    }
}
