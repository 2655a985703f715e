import Foundation
import Testing
@testable import PMCache

/// An item's images after the first live in `item_media`: read back in order with statuses
/// derived from their files, counted as uses by eviction, and gone with their feed's rows.
@Suite struct ItemMediaIndexTests {
    func makeIndex() throws -> PhotoIndex {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
    }

    func store(_ sha: String, in index: PhotoIndex, original: Bool = true) async throws {
        try await index.record(
            resource: ResourceRecord(url: "https://m/\(sha)", sha256: sha, etag: nil, lastModified: nil,
                                     contentType: "image/jpeg", fetchedAt: 1, lastAccess: 1),
            original: original ? OriginalRecord(sha256: sha, path: "originals/\(sha).jpg", bytes: 1, format: "jpeg",
                                                storedAt: 1, lastAccess: 1) : nil,
            thumbnails: [ThumbnailRecord(originalSHA256: sha, size: "40x40", bytes: 1,
                                         sha256: "t\(sha)", storedAt: 1, lastAccess: 1)])
    }

    let feed = FeedRecord(key: "k", url: "https://f/", kind: "rss", title: "F", link: nil, attribution: nil,
                          etag: nil, lastModified: nil, lastSync: 30, imageURL: "https://f/logo.png", imageSHA256: "cc",
                          warnings: ["recovered from malformed XML"])

    func item() -> ItemRecord {
        ItemRecord(itemID: "1", position: 0, title: "t", link: nil, published: nil, dateTaken: nil, author: nil,
                   tags: [], description: nil, mediaURL: "https://m/aa", status: .ok, error: nil, sha256: "aa",
                   mediaSource: "enclosure", moreMedia: [
                       MediaRecord(url: "https://m/bb", source: "html", status: .ok, error: nil, sha256: "bb"),
                       MediaRecord(url: "https://m/x", source: "html", status: .failed, error: "HTTP 404", sha256: nil),
                       MediaRecord(url: "https://m/dd", source: "itunes:image", status: .ok, error: nil, sha256: "dd"),
                   ])
    }

    @Test func furtherImagesComeBackInOrderWithDerivedStatuses() async throws {
        let index = try makeIndex()
        for sha in ["aa", "bb", "cc"] { try await store(sha, in: index) }
        try await store("dd", in: index, original: false)
        try await index.replaceFeed(feed, items: [item()])
        let read = try #require(try await index.items(feedKey: "k").first)
        #expect(read.mediaSource == "enclosure")
        #expect(read.moreMedia.map(\.url) == ["https://m/bb", "https://m/x", "https://m/dd"])
        #expect(read.moreMedia.map(\.status) == [.ok, .failed, .evictedOriginal])
        let joined = try await index.feedItems(feedKey: "k")
        #expect(joined.items.first?.moreMedia == read.moreMedia)
        #expect(joined.files["bb"]?.thumbnails == ["40x40": "thumbs/40x40/bb/bb.png"])
        #expect(joined.files["dd"]?.original == nil)
        let stored = try #require(try await index.feed(key: "k"))
        #expect(stored.imageSHA256 == "cc" && stored.warnings == ["recovered from malformed XML"])
    }

    /// A sync's settle hands the documents the items it read (`feedItems(settled:)`): they must
    /// come out as reading them back would give them, statuses, files and validators alike.
    @Test func settledItemsGiveWhatReadingThemBackGives() async throws {
        let index = try makeIndex()
        for sha in ["aa", "bb", "cc"] { try await store(sha, in: index) }
        try await store("dd", in: index, original: false)
        try await index.record(
            resource: ResourceRecord(url: "https://m/ff", sha256: "ff", etag: "\"v1\"", lastModified: "Mon, 02 Nov 2026 10:00:00 GMT",
                                     contentType: "image/jpeg", fetchedAt: 1, lastAccess: 1),
            original: OriginalRecord(sha256: "ff", path: "originals/ff.jpg", bytes: 1, format: "jpeg", storedAt: 1, lastAccess: 1,
                                     warning: "premature end", placeholder: "3OcRJYB4d3h/iIeHeEh3eIhw+j2w"),
            thumbnails: [ThumbnailRecord(originalSHA256: "ff", size: "40x40", bytes: 1, sha256: "tff", storedAt: 1, lastAccess: 1)])
        func plain(_ id: String, _ position: Int, url: String?, status: ItemStatus, sha256: String?) -> ItemRecord {
            ItemRecord(itemID: id, position: position, title: "t\(id)", link: nil, published: Double(position), dateTaken: nil,
                       author: nil, tags: ["a"], description: "d", mediaURL: url, status: status, error: nil, sha256: sha256,
                       mediaSource: url == nil ? nil : "enclosure")
        }
        var first = item()
        first.position = 0
        let items = [first, plain("2", 1, url: "https://m/ff", status: .ok, sha256: "ff"),
                     plain("3", 2, url: "https://m/ee", status: .ok, sha256: "ee"),
                     plain("4", 3, url: "https://m/gone", status: .failed, sha256: nil),
                     plain("5", 4, url: nil, status: .noImage, sha256: nil),
                     plain("6", 5, url: "https://m/ff", status: .ok, sha256: "aa")]
        try await index.replaceFeed(feed, items: items)

        let (rowids, settled) = try await index.settleFeed(key: "k") { rows in
            let page = try rows.nextPage(limit: 100)
            return (rows.pageRowids, page)
        }
        let handed = try await index.feedItems(settled: settled)
        let read = try await index.feedItems(feedKey: "k", rowids: rowids)
        #expect(handed.items == read.items)
        #expect(handed.files == read.files)
        #expect(handed.validators == read.validators)
        #expect(handed.items.map(\.status) == [.ok, .ok, .evicted, .failed, .noImage, .ok])
        #expect(handed.validators["https://m/ff"]?.etag == "\"v1\"", "item 6 names ff's URL with another image: no validators of it")
    }

    @Test func furtherImagesAndTheFeedImageAreUses() async throws {
        let index = try makeIndex()
        try await index.replaceFeed(feed, items: [item()])
        let used = Set(try await index.imageReferences().map(\.sha256.description))
        #expect(used == ["aa", "bb", "cc", "dd"])
        let dropped = try await index.dropRows(originals: [ImageHash("dd")], thumbnails: [])
        #expect(dropped.feedKeys == ["k"])
    }

    @Test func replacingTheFeedReplacesItsFurtherImages() async throws {
        let index = try makeIndex()
        try await index.replaceFeed(feed, items: [item()])
        var plain = item()
        plain.moreMedia = []
        try await index.replaceFeed(feed, items: [plain])
        #expect(try await index.items(feedKey: "k").first?.moreMedia == [])
        #expect(try await index.imageReferences().count == 2)
    }
}
