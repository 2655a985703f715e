import Foundation
import Testing
@testable import PhotoMirror

/// What `verify` finds in a feed.json.
@Suite struct JSONFeedCheckTests {
    let path = "feeds/k/feed.json"

    func problems(_ text: String?, ids: Set<String>? = ["1"], existing: Set<String> = ["originals/ab/ab.jpg"])
        -> JSONFeedCheck.Problems {
        JSONFeedCheck.problems(in: text.map { Array($0.utf8) }, path: path, feedURL: "https://f/", manifestIDs: ids) {
            existing.contains($0)
        }
    }

    @Test func whatTheWriterWritesIsClean() {
        let feed = JSONFeedWriterTests.feed()
        let text = String(decoding: JSONFeedWriter.bytes(feed: feed, base: JSONFeedWriterTests.base), as: UTF8.self)
        let existing = Set(feed.paths.values.flatMap { [$0.original].compactMap { $0 } + $0.thumbnails.values })
        #expect(problems(text, ids: Set(feed.items.map(\.itemID)), existing: existing) == JSONFeedCheck.Problems())
    }

    @Test func missingOrOtherItemsAreStaleNotDamage() {
        #expect(problems(nil) == JSONFeedCheck.Problems(stale: ["\(path): JSON Feed of https://f/ is missing"]))
        let other = #"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [{"id": "2", "content_text": ""}]}"#
        #expect(problems(other) == JSONFeedCheck.Problems(stale: ["\(path): lists other items than its manifest"]))
        #expect(problems(other, ids: nil) == JSONFeedCheck.Problems(), "no manifest to compare with: its own damage")
    }

    @Test func brokenDocumentsAndLinksAreDamage() {
        #expect(problems("{\"version\": ").damage == ["\(path): not a valid JSON Feed"])
        #expect(problems(#"{"version": "2", "items": []}"#).damage == ["\(path): not a valid JSON Feed"])
        let links = #"""
        {"version": "https://jsonfeed.org/version/1.1", "title": "t", "icon": "../../originals/zz/gone.png",
         "items": [{"id": "1", "image": "../../originals/ab/ab.jpg",
                    "attachments": [{"url": "../../originals/cd/cd.jpg", "mime_type": "image/jpeg"},
                                    {"url": "https://elsewhere.example/x.jpg", "mime_type": "image/jpeg"},
                                    {"url": "../../../../etc/passwd", "mime_type": "image/jpeg"}]}]}
        """#
        #expect(problems(links).damage == [
            "\(path): the feed's icon points at missing originals/zz/gone.png",
            "\(path): item 1 points at missing originals/cd/cd.jpg",
            "\(path): item 1 points outside the cache: ../../../../etc/passwd",
        ])
    }
}
