import Foundation
import Testing
@testable import PMCache

@Suite struct PhotoIndexTests {
    func makeIndex() throws -> PhotoIndex {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
    }

    func sample(url: String = "https://img.example/a.jpg", sha: String = "ab12") -> (ResourceRecord, OriginalRecord, ThumbnailRecord) {
        (ResourceRecord(url: url, sha256: sha, etag: "\"e1\"", lastModified: nil, contentType: "image/jpeg",
                        fetchedAt: 10, lastAccess: 10),
         OriginalRecord(sha256: sha, path: "originals/ab/\(sha).jpg", bytes: 1234, format: "jpeg", storedAt: 10, lastAccess: 10),
         ThumbnailRecord(originalSHA256: sha, size: "40x40", bytes: 99,
                         sha256: "t1", storedAt: 10, lastAccess: 10))
    }

    @Test func recordedMediaIsFoundByURL() async throws {
        let index = try makeIndex()
        let (resource, original, thumbnail) = sample()
        try await index.record(resource: resource, original: original, thumbnails: [thumbnail])
        let media = try #require(try await index.media(for: resource.url))
        #expect(media.sha256 == "ab12")
        #expect(media.original == original)
        #expect(media.thumbnails["40x40"] == thumbnail)
        #expect(media.etag == "\"e1\"")
        #expect(try await index.media(for: "https://img.example/other.jpg") == nil)
    }

    @Test func twoURLsWithTheSameBytesShareOneOriginal() async throws {
        let index = try makeIndex()
        let (first, original, thumbnail) = sample()
        let (second, _, _) = sample(url: "https://mirror.example/a.jpg")
        try await index.record(resource: first, original: original, thumbnails: [thumbnail])
        try await index.record(resource: second, original: original, thumbnails: [thumbnail])
        let files = try await index.allFiles()
        #expect(files.originals.count == 1)
        #expect(files.thumbnails.count == 1)
        #expect(try await index.media(for: second.url)?.sha256 == "ab12")
    }

    @Test func touchRefreshesAccessTimes() async throws {
        let index = try makeIndex()
        let (resource, original, thumbnail) = sample()
        try await index.record(resource: resource, original: original, thumbnails: [thumbnail])
        try await index.touch(url: resource.url, sha256: "ab12", at: 99)
        let media = try #require(try await index.media(for: resource.url))
        #expect(media.original?.lastAccess == 99)
        #expect(media.thumbnails["40x40"]?.lastAccess == thumbnail.lastAccess, "serve moves a thumbnail's; a sync the original's")
    }

    @Test func batchedLookupsAndTouchesAnswerPerURL() async throws {
        let index = try makeIndex()
        let strange = "https://img.example/\"quoted\"\\back\u{1}é.jpg"
        let (first, original, thumbnail) = sample()
        let (second, otherOriginal, otherThumbnail) = sample(url: strange, sha: "cd34")
        try await index.record(resource: first, original: original, thumbnails: [thumbnail])
        try await index.record(resource: second, original: otherOriginal, thumbnails: [otherThumbnail])
        let unknown = "https://img.example/unknown.jpg"
        let found = try await index.media(for: [first.url, unknown, strange, first.url])
        #expect(Set(found.keys) == [first.url, strange])
        #expect(found[strange]?.sha256 == "cd34" && found[strange]?.thumbnails["40x40"] == otherThumbnail)
        #expect(found[first.url]?.original == original)

        try await index.apply([.touch(url: first.url, sha256: "ab12", at: 50), .touch(url: strange, sha256: "cd34", at: 50)])
        let touched = try await index.media(for: [first.url, strange])
        #expect(touched.values.allSatisfy { $0.original?.lastAccess == 50 && $0.thumbnails["40x40"]?.lastAccess != 50 })
        #expect(try await index.media(for: [String]()).isEmpty)
    }

    @Test func replacingAFeedReplacesItsItems() async throws {
        let index = try makeIndex()
        let feed = FeedRecord(key: "k1", url: "https://feed.example/", kind: "rss", title: "T", link: nil,
                              attribution: "© someone", etag: nil, lastModified: nil, lastSync: 5)
        func item(_ id: String, _ position: Int) -> ItemRecord {
            ItemRecord(itemID: id, position: position, title: "title \(id)", link: nil, published: 1, dateTaken: nil,
                       author: nil, tags: ["a b", "c"], description: "<b>x</b>", mediaURL: "https://m/\(id)",
                       status: .ok, error: nil, sha256: nil)
        }
        try await index.replaceFeed(feed, items: [item("1", 0), item("2", 1)])
        try await index.replaceFeed(feed, items: [item("3", 0)])
        let items = try await index.items(feedKey: "k1")
        #expect(items.map(\.itemID) == ["3"])
        #expect(items.first?.tags == ["a b", "c"])
        #expect(try await index.feed(key: "k1")?.attribution == "© someone")
    }
}
