import Foundation
import Testing
@testable import PMCache
import PMSupport

/// Dropping rows for a prune or repair, against a real SQLite index in a temp folder.
@Suite struct IndexEvictionTests {
    func makeIndex() throws -> PhotoIndex {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-evict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
    }

    /// Two feeds: "a" lists images x and y, "b" lists y (shared) and z.
    func populate(_ index: PhotoIndex) async throws {
        for sha in ["x", "y", "z"] { try await index.recordTestImage(sha) }
        for (key, shas, synced) in [("a", ["x", "y"], 10.0), ("b", ["y", "z"], 20.0)] {
            let feed = FeedRecord(key: key, url: "https://feed/\(key)", kind: "rss", title: key, link: nil,
                                  attribution: nil, etag: nil, lastModified: nil, lastSync: synced)
            var items = shas.enumerated().map { position, sha in
                ItemRecord(itemID: sha, position: position, title: sha, link: nil, published: nil, dateTaken: nil,
                           author: nil, tags: [], description: nil, mediaURL: "https://img/\(sha)", status: .ok,
                           error: nil, sha256: sha)
            }
            items.append(ItemRecord(itemID: "f", position: 9, title: "f", link: nil, published: nil, dateTaken: nil,
                                    author: nil, tags: [], description: nil, mediaURL: "https://img/404",
                                    status: .failed, error: "HTTP 404", sha256: nil))
            try await index.replaceFeed(feed, items: items)
        }
    }

    func statuses(_ index: PhotoIndex, feed: String) async throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try await index.items(feedKey: feed).map { ($0.itemID, $0.status.rawValue) })
    }

    @Test func aSyncsFeedsCountAsListingTheirItemsNow() async throws {
        let index = try makeIndex()
        try await populate(index)
        func listedAt(_ references: [BlobReference], _ sha: String) -> Double? {
            references.filter { $0.sha256 == ImageHash(sha) }.map(\.listedAt).max()
        }
        let stored = try await index.imageReferences()
        #expect(listedAt(stored, "x") == 10)
        let images = try await index.evictionImages(listing: ["a"], at: 50)
        #expect(images.position(of: "z").map { images.lastUsed[$0] } == 20, "the images take the latest listing")
        let syncing = try await index.imageReferences(listing: ["a"], at: 50)
        #expect(listedAt(syncing, "x") == 50, "feed a is being synced")
        #expect(listedAt(syncing, "y") == 50)
        #expect(listedAt(syncing, "z") == 20, "feed b is not")
    }

    @Test func droppingAnOriginalKeepsThumbnailsAndMarksEveryItemNamingIt() async throws {
        let index = try makeIndex()
        try await populate(index)
        let dropped = try await index.dropRows(originals: ["y"], thumbnails: [])
        #expect(dropped.feedKeys == ["a", "b"])
        #expect(try await index.allFiles().originals.map(\.sha256).sorted() == ["x", "z"])
        #expect(try await statuses(index, feed: "a") == ["x": "ok", "y": "evicted-original", "f": "failed"])
        #expect(try await statuses(index, feed: "b") == ["y": "evicted-original", "z": "ok", "f": "failed"])
        #expect(try await index.media(for: "https://img/y") == nil, "no URL row is kept for an image without an original")
        try await index.gatherEvictedMedia(ofFeed: "a")
        #expect(try await index.media(for: "https://img/y")?.original == nil,
                "the listing item names the URL's image: the next sync knows it was evicted, not new")
        #expect(try await index.media(for: "https://img/y")?.thumbnails.count == 2)
        #expect(try await index.thumbnails(of: "y").count == 2, "the items find the thumbnails by their hash")
        let items = try await index.feedItems(feedKey: "a")
        #expect(items.files["y"]?.thumbnails.count == 2 && items.files["y"]?.original == nil)
    }

    @Test func droppingEverythingOfAListedImageKeepsItsURL() async throws {
        let index = try makeIndex()
        try await populate(index)
        let dropped = try await index.dropRows(originals: ["z"], thumbnails: [("z", nil)])
        #expect(dropped.feedKeys == ["b"])
        #expect(try await index.thumbnails(of: "z").isEmpty)
        #expect(try await statuses(index, feed: "b")["z"] == "evicted")
        #expect(try await index.totals().mediaURLs == 2, "x and y keep theirs; z's row goes")
        try await index.gatherEvictedMedia(ofFeed: "b")
        let media = try await index.media(for: "https://img/z")
        #expect(media?.sha256 == "z" && media?.original == nil && media?.thumbnails.isEmpty == true,
                "an item still names it: a plain sync leaves it evicted")
    }

    @Test func aLostImageIsForgottenSoTheNextSyncFetchesIt() async throws {
        let index = try makeIndex()
        try await populate(index)
        _ = try await index.dropRows(originals: ["z"], thumbnails: [("z", nil)])
        try await index.forgetMediaURLs(of: ["z"])
        try await index.gatherEvictedMedia(ofFeed: "b")
        #expect(try await index.media(for: "https://img/z") == nil, "unknown again: not evicted but lost")
        #expect(try await index.syncMedia(for: ["https://img/z", "https://img/x"]).keys.sorted() == ["https://img/x"])
        #expect(try await index.knownHashes(of: ["https://img/z"]).isEmpty)
        #expect(try await statuses(index, feed: "b")["z"] == "evicted", "the item still shows what is left of it")
    }

    @Test func droppingOneThumbnailSizeLeavesTheItemOK() async throws {
        let index = try makeIndex()
        try await populate(index)
        let dropped = try await index.dropRows(originals: [], thumbnails: [("x", "80x80")])
        #expect(dropped.feedKeys == ["a"])
        #expect(try await statuses(index, feed: "a")["x"] == "ok")
        #expect(try await index.thumbnails(of: "x").keys.sorted() == ["40x40"])
    }

    @Test func statusesAreDerivedFromTheFilesNotStored() async throws {
        let index = try makeIndex()
        try await populate(index)
        _ = try await index.dropRows(originals: ["x"], thumbnails: [])
        #expect(try await statuses(index, feed: "a")["x"] == "evicted-original")
        // A cache written when prune stored statuses: a row saying "evicted" whose files a later
        // sync restored reads as what the files say.
        let feed = try #require(try await index.feed(key: "b"))
        var items = try await index.items(feedKey: "b")
        items[0].status = .evicted
        try await index.replaceFeed(feed, items: items)
        #expect(try await statuses(index, feed: "b") == ["y": "ok", "z": "ok", "f": "failed"])
        // Statuses that are the sync's own answer are never derived.
        items[0].status = .failed
        try await index.replaceFeed(feed, items: items)
        #expect(try await statuses(index, feed: "b")["y"] == "failed")
    }

    @Test func feedItemsGiveWhatItemsAndFilesGiveInOneQuery() async throws {
        let index = try makeIndex()
        try await populate(index)
        _ = try await index.dropRows(originals: ["y"], thumbnails: [("z", nil), ("x", "80x80")])
        for feed in ["a", "b"] {
            let joined = try await index.feedItems(feedKey: feed)
            let items = try await index.items(feedKey: feed)
            #expect(joined.items == items)
            let files = try await index.files(of: Set(items.compactMap(\.sha256)))
            #expect(joined.files == files.mapValues {
                PhotoIndex.ImageFiles(original: $0.original?.path, thumbnails: $0.thumbnails.mapValues(\.path))
            })
        }
        let b = try await index.feedItems(feedKey: "b")
        #expect(b.items.map(\.status.rawValue) == ["evicted-original", "evicted", "failed"])
        #expect(b.files["y"] == PhotoIndex.ImageFiles(original: nil, thumbnails: ["40x40": "thumbs/40x40/y/y.png",
                                                                                   "80x80": "thumbs/80x80/y/y.png"]))
        #expect(b.files["z"] == PhotoIndex.ImageFiles(original: "originals/z.jpg", thumbnails: [:]),
                "no thumbnail left: evicted, even with its original")
    }

    /// A prune writes the pages from the files it read, less those it dropped: the same items,
    /// statuses, paths and decoding warnings as the joins give, further images and the feed's own
    /// image included.
    @Test func feedItemsFromKnownFilesAreTheJoinedOnes() async throws {
        let index = try makeIndex()
        let shas = (0..<6).map { Digest.sha256Hex(Array("image \($0)".utf8)) }
        for (number, sha) in shas.enumerated() {
            try await index.record(
                resource: ResourceRecord(url: "https://img/\(number)", sha256: sha, etag: "\"\(number)\"", lastModified: nil,
                                         contentType: nil, fetchedAt: 1, lastAccess: Double(number)),
                original: OriginalRecord(sha256: sha, path: CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                                         bytes: 100, format: "jpeg", storedAt: 1, lastAccess: Double(number),
                                         warning: number == 3 ? "JPEG: Premature end of JPEG file" : nil),
                thumbnails: ["40x40", "80x80"].map {
                    ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 5, sha256: "t", storedAt: 1, lastAccess: Double(number))
                })
        }
        let feed = FeedRecord(key: "a", url: "https://feed/a", kind: "rss", title: "a", link: nil, attribution: nil,
                              etag: nil, lastModified: nil, lastSync: 0, imageURL: "https://img/5", imageSHA256: shas[5])
        let items = (0..<5).map { number in
            ItemRecord(itemID: "\(number)", position: number, title: "t", link: nil, published: nil, dateTaken: nil,
                       author: nil, tags: [], description: nil, mediaURL: "https://img/\(number)", status: .ok, error: nil,
                       sha256: shas[number],
                       moreMedia: [MediaRecord(url: "https://img/\((number + 1) % 5)", source: "html", status: .ok, error: nil,
                                               sha256: shas[(number + 1) % 5])])
        } + [ItemRecord(itemID: "gone", position: 9, title: "t", link: nil, published: nil, dateTaken: nil, author: nil,
                        tags: [], description: nil, mediaURL: "https://img/9", status: .ok, error: nil,
                        sha256: String(repeating: "9", count: 64))]
        try await index.replaceFeed(feed, items: items)
        let images = try await index.evictionImages()
        var plan = EvictionPlan()
        plan.originals = [ImageHash(shas[0]), ImageHash(shas[1]), ImageHash(shas[5])]
        plan.thumbnails = [ImageHash(shas[1]), ImageHash(shas[2])]
        var known = KnownFiles(images: images, without: plan)
        _ = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) })
        known.warnings = try await index.originalWarnings()
        known.placeholders = try await index.placeholders(keptBy: known)
        #expect(known.warnings == [shas[3]: "JPEG: Premature end of JPEG file"])
        let joined = try await index.feedItems(feedKey: "a")
        #expect(joined.files[shas[3]]?.warning == "JPEG: Premature end of JPEG file")
        #expect(joined.files[shas[4]]?.warning == nil)
        #expect(try await index.feedItems(feedKey: "a", known: known) == joined)
        let order = try await index.itemOrder(feedKey: "a", newestFirst: false)
        let page = try await index.feedItems(feedKey: "a", rowids: order)
        #expect(try await index.feedItems(feedKey: "a", rowids: order, known: known) == page)
        #expect(page.items.map(\.status.rawValue) == joined.items.map(\.status.rawValue))
        #expect(try await index.statusCounts(feedKey: "a", known: known) == index.statusCounts(feedKey: "a"))
        #expect(joined.items.map(\.status.rawValue) == ["evicted-original", "evicted", "evicted", "ok", "ok", "evicted"])
        #expect(joined.items.prefix(2).map { $0.moreMedia[0].status.rawValue } == ["evicted", "evicted"])
    }

    @Test func knownFilesNameThumbnailsAsTheJoinDoesWhateverTheirSize() async throws {
        let index = try makeIndex()
        try await populate(index)
        let known = KnownFiles(images: try await index.evictionImages(), without: EvictionPlan())
        #expect(try await index.feedItems(feedKey: "a", known: known) == index.feedItems(feedKey: "a"),
                "x's thumbnails are not under their canonical names (its hash is not one)")
    }

    /// A prune tells `dropRows` which feeds to owe documents from its own rows: the same ones
    /// the index finds, an image shared by two feeds included.
    @Test func theImagesKnowTheFeedsADropMakesStale() async throws {
        for (sha, feeds) in [("x", ["a"]), ("y", ["a", "b"]), ("z", ["b"])] {
            let index = try makeIndex()
            try await populate(index)
            let known = try await index.evictionImages().feedKeys(showing: [ImageHash(sha)])
            #expect(known == Set(feeds), "\(sha)")
            #expect(try await index.dropRows(originals: [ImageHash(sha)], thumbnails: []).feedKeys == known, "\(sha)")
        }
    }

    @Test func droppingNothingChangesNothing() async throws {
        let index = try makeIndex()
        try await populate(index)
        #expect(try await index.dropRows(originals: [], thumbnails: []).feedKeys.isEmpty)
        #expect(try await index.allFiles().originals.count == 3)
    }

    @Test func evictionImagesPackCanonicalPathsAndKeepOthersAsText() async throws {
        let index = try makeIndex()
        let sha = String(repeating: "ab", count: 32)
        let path = CacheLayout.originalPath(sha256: sha, fileExtension: "jpg")
        try await index.record(
            resource: ResourceRecord(url: "https://img/1", sha256: sha, etag: nil, lastModified: nil, contentType: nil,
                                     fetchedAt: 1, lastAccess: 1),
            original: OriginalRecord(sha256: sha, path: path, bytes: 1, format: "jpeg", storedAt: 1, lastAccess: 7),
            thumbnails: ["40x40", "040x40"].map {
                ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 1, sha256: "t", storedAt: 1, lastAccess: 1)
            })
        let images = try await index.evictionImages()
        #expect(images.hashes == [ImageHash(sha)])
        #expect(images.lastUsed == [7])
        #expect(images.originalPath(0) == CachePath(path))
        guard case .packed = images.hashes[0], case .content = images.originalPath(0) else {
            Issue.record("a canonical hash and path are packed")
            return
        }
        // A thumbnail's path is made from its keys, packed when that is its canonical name.
        #expect(images.thumbnailSizes(0) == ["040x40", "40x40"])
        #expect(images.thumbnailPaths(0) == [.text(CacheLayout.thumbnailPath(originalSHA256: sha, size: "040x40")),
                                             CachePath(CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40"))])
        guard case .content = images.thumbnailPaths(0)[1] else {
            Issue.record("a thumbnail of a canonical hash and size is packed")
            return
        }
    }

    @Test func referencesCarryTheListingFeedsSyncTime() async throws {
        let index = try makeIndex()
        try await populate(index)
        let references = try await index.imageReferences()
        #expect(Set(references.filter { $0.sha256 == "y" }.map(\.listedAt)) == [10, 20])
        #expect(references.count == 4, "one per item with an image")
    }

    /// A feed whose sync stopped before it settled its rows: its items have no hash yet, and the
    /// image stored for one is found through its URL, pending in that feed, not listed by none.
    @Test func anUnsettledItemsImageIsListedThroughItsURL() async throws {
        let index = try makeIndex()
        try await index.recordTestImage("w")
        let feed = FeedRecord(key: "c", url: "https://feed/c", kind: "rss", title: "c", link: nil,
                              attribution: nil, etag: nil, lastModified: nil, lastSync: 30)
        let items = ["w", "v"].enumerated().map { position, sha in
            ItemRecord(itemID: sha, position: position, title: sha, link: nil, published: nil, dateTaken: nil,
                       author: nil, tags: [], description: nil, mediaURL: "https://img/\(sha)", status: .failed,
                       error: "not processed: the sync was interrupted", sha256: nil)
        }
        try await index.replaceFeed(feed, items: items)
        let references = try await index.imageReferences()
        #expect(references.map(\.sha256) == ["w"], "the one URL that has an image")
        #expect(references.map(\.listedAt) == [30])
    }

    @Test func totalsCountRowsAndStatuses() async throws {
        let index = try makeIndex()
        try await populate(index)
        _ = try await index.dropRows(originals: ["x"], thumbnails: [])
        let totals = try await index.totals()
        #expect(totals.feeds == 2)
        #expect(totals.items == 6)
        #expect(totals.itemsByStatus == ["ok": 3, "evicted-original": 1, "failed": 2])
        #expect(totals.originals == 2)
        #expect(totals.originalBytes == 200)
        #expect(totals.thumbnails == 6)
        #expect(totals.oldestAccess == 1)
    }

    @Test func metaValuesRoundTripAndLastSyncCountersDecode() async throws {
        let index = try makeIndex()
        let counters = LastSyncCounters(at: 5, media: 4, downloaded: 1, reused: 3, failed: 0)
        try await index.setMeta([MetaKey.lastSync: counters.encoded(), MetaKey.gallerySize: "80x80"])
        #expect(LastSyncCounters.decode(try await index.meta(MetaKey.lastSync)) == counters)
        #expect(counters.hitRatio == 0.75)
        #expect(try await index.meta(MetaKey.gallerySize) == "80x80")
        #expect(try await index.meta("nothing") == nil)
    }

    @Test func aReadOnlyIndexReadsWhatTheWriterCommitted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        let writer = try PhotoIndex(path: path)
        try await populate(writer)
        let reader = try PhotoIndex(readingOnly: path)
        #expect(try await reader.feeds().count == 2)
        await #expect(throws: IndexError.self) { try await reader.setMeta(["k": "v"]) }
    }
}
