import Foundation
import Testing
@testable import PMCache

/// A 304 feed reused in one transaction only when every image it names is whole.
@Suite struct WholeFeedReuseTests {
    func makeIndex() throws -> (PhotoIndex, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-whole-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path), folder)
    }

    /// Images x, y (further image of item x) and the logo l, each with 40x40 and 80x80 thumbnails;
    /// one item without an image.
    func populate(_ index: PhotoIndex) async throws {
        for sha in ["x", "y", "l"] { try await index.recordTestImage(sha) }
        let feed = FeedRecord(key: "a", url: "https://feed/a", kind: "rss", title: "a", link: nil, attribution: nil,
                              etag: "\"1\"", lastModified: nil, lastSync: 1, imageURL: "https://img/l", imageSHA256: "l")
        let items = [
            ItemRecord(itemID: "1", position: 0, title: "x", link: nil, published: nil, dateTaken: nil, author: nil,
                       tags: [], description: nil, mediaURL: "https://img/x", status: .ok, error: nil, sha256: "x",
                       moreMedia: [MediaRecord(url: "https://img/y", source: "html", status: .ok, error: nil, sha256: "y")]),
            ItemRecord(itemID: "2", position: 1, title: "text", link: nil, published: nil, dateTaken: nil, author: nil,
                       tags: [], description: nil, mediaURL: nil, status: .noImage, error: nil, sha256: nil),
        ]
        try await index.replaceFeed(feed, items: items)
    }

    @Test func aWholeFeedIsReusedAtOnceAndCountsEachURLThisSyncHadNotUsed() async throws {
        let (index, folder) = try makeIndex()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await populate(index)
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40", "80x80"],
                                               at: 50, syncStart: 40) == 3)
        let media = try await index.media(for: ["https://img/x", "https://img/y", "https://img/l"])
        #expect(media.count == 3)
        // The originals are not written: the feed's last sync makes them as recent (see below).
        #expect(media.values.allSatisfy { $0.original?.lastAccess == 1 && $0.thumbnails["40x40"]?.lastAccess == 1 })
        let touched = try await index.syncMedia(for: ["https://img/x"])["https://img/x"]
        #expect(touched?.lastAccess == 50)
        // Already used by this sync: reused again, counted once.
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40"],
                                               at: 60, syncStart: 40) == 0)
    }

    /// A reused feed's images are as recent as its last sync while it lists them, and stay so once
    /// it no longer does: replacing its rows carries that sync into each original that left.
    @Test func aReusedFeedsImagesKeepItsLastSyncOnceItNoLongerListsThem() async throws {
        let (index, folder) = try makeIndex()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await populate(index)
        func lastUsed() async throws -> [ImageHash: Double] {
            let images = try await index.evictionImages()
            return Dictionary(uniqueKeysWithValues: zip(images.hashes, images.lastUsed).map { ($0, $1) })
        }
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40"],
                                               at: 50, syncStart: 40) == 3)
        try await index.finishSync(feedKey: "a", at: 50, etag: "\"1\"", lastModified: nil, imageSHA256: "l")
        #expect(try await lastUsed() == ["x": 50, "y": 50, "l": 50])

        // The next document keeps x, drops its further image y and the feed's logo l.
        let feed = FeedRecord(key: "a", url: "https://feed/a", kind: "rss", title: "a", link: nil, attribution: nil,
                              etag: "\"2\"", lastModified: nil, lastSync: 70, imageURL: nil, imageSHA256: nil)
        let kept = ItemRecord(itemID: "1", position: 0, title: "x", link: nil, published: nil, dateTaken: nil,
                              author: nil, tags: [], description: nil, mediaURL: "https://img/x", status: .ok, error: nil,
                              sha256: "x")
        try await index.replaceFeed(feed, items: [kept])
        #expect(try await lastUsed() == ["x": 70, "y": 50, "l": 50])
        // Only what left was written: x is as recent as the feed that still lists it.
        #expect(try await index.original(sha256: "y")?.lastAccess == 50)
        #expect(try await index.original(sha256: "l")?.lastAccess == 50)
        #expect(try await index.original(sha256: "x")?.lastAccess == 1)
    }

    @Test func anImageThatIsNotWholeLeavesEveryRowAsItWas() async throws {
        let (index, folder) = try makeIndex()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await populate(index)
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40", "160x160"],
                                               at: 50, syncStart: 40) == nil, "no 160x160 thumbnail")
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/unknown", sizes: ["40x40"],
                                               at: 50, syncStart: 40) == nil, "a logo the index does not know")
        let media = try await index.media(for: ["https://img/x", "https://img/l"])
        #expect(media.values.allSatisfy { $0.original?.lastAccess == 1 })
        #expect(try await index.syncMedia(for: ["https://img/x"])["https://img/x"]?.lastAccess == 1)
    }

    /// Evicted stays evicted: an image whose original a prune took (its thumbnails kept) does
    /// not make a plain sync of the unchanged feed fetch it again.
    @Test func anEvictedOriginalLeavesTheFeedReusedAndTheImageEvicted() async throws {
        let (index, folder) = try makeIndex()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await populate(index)
        _ = try await index.dropRows(originals: ["y"], thumbnails: [])
        #expect(try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40"],
                                               at: 50, syncStart: 40) != nil)
        #expect(try await index.original(sha256: "y") == nil)
    }

    /// Each way an evicted image can stand: reused as evicted unless the sync refetches evicted
    /// images, and never when a size it keeps a thumbnail of lacks one.
    @Test func anEvictedImageIsReusedUnlessRefetchedOrLackingASize() async throws {
        // y's original is dropped each time; `thumbnails`: which of its thumbnails go with it.
        let cases: [(thumbnails: [(sha256: ImageHash, size: String?)], refetch: Bool, reused: Bool)] = [
            ([], false, true),                // its thumbnails kept
            ([], true, false),                // the same, in a sync that refetches
            ([("y", "40x40")], false, false), // an 80x80 thumbnail left, no 40x40
            ([("y", nil)], false, true),      // nothing of it left
        ]
        for (thumbnails, refetch, reused) in cases {
            let (index, folder) = try makeIndex()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await populate(index)
            _ = try await index.dropRows(originals: ["y"], thumbnails: thumbnails)
            let result = try await index.reuseWholeFeed(feedKey: "a", imageURL: "https://img/l", sizes: ["40x40"],
                                                        at: 50, syncStart: 40, refetchEvicted: refetch)
            #expect((result != nil) == reused, "thumbnails dropped \(thumbnails), refetch \(refetch)")
        }
    }
}
