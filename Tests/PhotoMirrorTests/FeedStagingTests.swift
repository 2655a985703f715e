import Foundation
import PMCache
import Testing
@testable import PMFeeds
@testable import PhotoMirror

/// A feed's rows written as its document is read (`PhotoIndex.stageFeed`): one transaction, the
/// items going in one at a time, ids made unique as the parsers make them.
@Suite struct FeedStagingTests {
    static let key = "k"

    static func record(_ title: String = "f") -> FeedRecord {
        FeedRecord(key: key, url: "http://feeds.test/f.xml", kind: "rss", title: title, link: nil, attribution: nil,
                   etag: nil, lastModified: nil, lastSync: 1)
    }

    static func row(_ id: String, position: Int) -> ItemRecord {
        ItemRecord(itemID: id, position: position, title: "t", link: nil, published: nil, dateTaken: nil, author: nil,
                   tags: [], description: nil, mediaURL: "http://img.test/\(position).jpg", status: .failed,
                   error: "not processed", sha256: nil)
    }

    func stage(_ ids: [String], into index: PhotoIndex, failing: Bool = false) async throws {
        struct Unreadable: Error {}
        _ = try await index.stageFeed(key: Self.key, url: Self.record().url) { rows in
            for (position, id) in ids.enumerated() { try rows.add(Self.row(id, position: position)) }
            if failing { throw Unreadable() }
            return (Self.record(failing ? "failed" : "staged"), ())
        }
    }

    @Test func repeatedIDsComeOutAsTheParsersMakeThem() async throws {
        let ids = ["a", "a", "a-2", "b", "a", "b-2", "b", "a-3"]
        let index = try PhotoIndex(path: ":memory:")
        try await stage(ids, into: index)
        let stored = try await index.items(feedKey: Self.key).map(\.itemID)
        let parsed = FeedItemIDs.uniqued(ids.map { FeedItem(id: $0, title: "") }).map(\.id)
        #expect(stored == parsed, "\(stored) vs \(parsed)")
    }

    @Test func aDocumentThatCannotBeReadLeavesTheFeedAsItWas() async throws {
        let index = try PhotoIndex(path: ":memory:")
        try await stage(["1", "2"], into: index)
        await #expect(throws: (any Error).self) { try await stage(["3"], into: index, failing: true) }
        #expect(try await index.items(feedKey: Self.key).map(\.itemID) == ["1", "2"])
        #expect(try await index.feed(key: Self.key)?.title == "staged")
        // A new feed that fails leaves no row at all.
        let other = try PhotoIndex(path: ":memory:")
        await #expect(throws: (any Error).self) { try await stage(["3"], into: other, failing: true) }
        #expect(try await other.feeds().isEmpty)
    }

    /// A staged row keeps the validators of the document its feed was last settled from (none
    /// for a new feed) until the sync finishes: a sync stopped in between asks in full next time.
    @Test func aStagedRowKeepsTheValidatorsOfTheLastFinishedSync() async throws {
        let index = try PhotoIndex(path: ":memory:")
        func stage(etag: String) async throws {
            _ = try await index.stageFeed(key: Self.key, url: Self.record().url) { rows in
                try rows.add(Self.row("a", position: 0))
                var record = Self.record()
                record.etag = etag
                return (record, ())
            }
        }
        try await stage(etag: "\"1\"")
        #expect(try await index.feed(key: Self.key)?.etag == nil)
        try await index.finishSync(feedKey: Self.key, at: 2, etag: "\"1\"", lastModified: nil, imageSHA256: nil)
        #expect(try await index.feed(key: Self.key)?.etag == "\"1\"")
        try await stage(etag: "\"2\"")
        #expect(try await index.feed(key: Self.key)?.etag == "\"1\"")
    }

    @Test func aRestartDropsWhatWasAdded() async throws {
        let index = try PhotoIndex(path: ":memory:")
        _ = try await index.stageFeed(key: Self.key, url: Self.record().url) { rows in
            try rows.add(Self.row("a", position: 0))
            try rows.add(Self.row("a", position: 1))
            try rows.restart()
            try rows.add(Self.row("b", position: 0))
            try rows.addUnique(Self.row("b", position: 1))
            return (Self.record(), ())
        }
        #expect(try await index.items(feedKey: Self.key).map(\.itemID) == ["b", "b-2"])
    }
}
