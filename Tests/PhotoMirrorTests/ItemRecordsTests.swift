import Foundation
import Testing
@testable import PMFeeds
@testable import PhotoMirror

@Suite struct ItemRecordsTests {
    func item(_ id: String, media: String?, noImage: String? = nil) -> FeedItem {
        FeedItem(id: id, title: "t\(id)", link: nil, published: Date(timeIntervalSince1970: 100), dateTaken: nil,
                 author: nil, tags: ["x"], description: nil, mediaURL: media, noImageReason: noImage)
    }

    @Test func outcomesBecomeStatuses() {
        let feed = ParsedFeed(kind: .marvel, title: "f", link: nil, attribution: nil,
                              items: [item("1", media: "u1"), item("2", media: "u2"), item("3", media: nil, noImage: "placeholder"),
                                      item("4", media: "u4")],
                              invalid: [InvalidItem(index: 4, id: nil, reason: "item 4: \"media.m\" is missing")], paging: nil)
        let records = ItemRecords.make(feed: feed, outcomes: [
            "u1": .stored(sha256: "s1", downloaded: true, bytes: 10), "u2": .failed(reason: "HTTP 404 Not Found"),
        ])
        #expect(records.map(\.status.rawValue) == ["ok", "failed", "no-image", "failed", "failed"])
        #expect(records[0].sha256 == "s1")
        #expect(records[1].error == "HTTP 404 Not Found")
        #expect(records[2].error == "placeholder")
        #expect(records[3].error?.contains("interrupted") == true)
        #expect(records[4].error == "item 4: \"media.m\" is missing")
        #expect(records[4].itemID == "item-4")
        #expect(records[0].published == 100)
    }

    @Test func repeatedIDsAreMadeUnique() {
        let feed = ParsedFeed(kind: .rss, title: "f", link: nil, attribution: nil,
                              items: [item("a", media: nil), item("a", media: nil)], invalid: [], paging: nil)
        #expect(ItemRecords.make(feed: feed, outcomes: [:]).map(\.itemID) == ["a", "a-2"])
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://x/y.jpg", "gopher://x", "data:image/png;base64,AAAA", "javascript:x", "/relative.jpg",
                      "http", "httpx://x/a.jpg", "htt://x/a.jpg", "httpss://x/a.jpg", "hxxp://x/a.jpg", ":http://x", "HTTP\u{0}://x",
                      "ht\u{54}p\u{8}://x", "http\u{C9}://x"])
    func onlyHTTPMediaIsFetched(url: String) {
        #expect(throws: MediaFailure.self) { try MediaURLPolicy.check(url) }
    }

    @Test func httpMediaIsFetched() throws {
        try MediaURLPolicy.check("https://live.staticflickr.com/1/2_3.jpg")
        try MediaURLPolicy.check("HTTP://127.0.0.1:8000/a.png")
        try MediaURLPolicy.check("hTtPs://example.org/a.png")
    }

    @Test func theRefusalNamesTheScheme() {
        for (url, scheme) in [("FTP://x/y.jpg", "ftp"), ("/relative.jpg", "/relative.jpg"), ("https-x:y", "https-x")] {
            let error = #expect(throws: MediaFailure.self) { try MediaURLPolicy.check(url) }
            #expect(error?.reason.contains("unsupported URL scheme \"\(scheme)\"") == true, "\(String(describing: error?.reason))")
        }
    }

    @Test func nonImagesAreDescribed() {
        #expect(ContentSniffer.describeNonImage(Array("<!DOCTYPE html><html>".utf8)) == "not an image: received an HTML page")
        #expect(ContentSniffer.describeNonImage([0x00, 0x49, 0x46, 0x38]).hasSuffix("(received 4 bytes of unknown binary data)"))
        // The reason is published in the manifest: a secret answered in place of an image stays unquoted.
        let secret = ContentSniffer.describeNonImage(Array("SECRET=hunter2".utf8))
        #expect(secret.hasSuffix("(received 14 bytes of text)") && !secret.contains("53 45") && !secret.contains("SECRET"))
    }
}
