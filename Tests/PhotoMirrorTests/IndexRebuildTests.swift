import Foundation
import Testing
@testable import PMCache
import PMSupport
@testable import PhotoMirror

/// A rebuilt index's rows, from what the cache holds: manifests back to the rows a sync stored,
/// content files to their rows, media URLs only where an image has a file, and the damaged
/// index kept aside.
@Suite struct IndexRebuildTests {
    static let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)
    static let c = String(repeating: "c", count: 64), logo = String(repeating: "d", count: 64)

    static let feed = FeedRecord(
        key: CacheLayout.feedKey(url: "https://f/feed.xml"), url: "https://f/feed.xml", kind: "rss", title: "F",
        link: "https://f/", attribution: "Data by F", etag: "\"v1\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT",
        lastSync: 1_795_957_200, imageURL: "https://f/logo.png", imageSHA256: logo, warnings: ["read as windows-1252"])

    /// As a sync stores them: statuses ok, failed, no-image; whole-second times; positions in order.
    static let stored: [ItemRecord] = [
        ItemRecord(itemID: "1", position: 0, title: "one", link: "https://f/1", published: 1_795_000_000,
                   dateTaken: 1_794_000_000, author: "ann", tags: ["x", "y"], description: "<p>one</p>",
                   mediaURL: "https://m/a.jpg", status: .ok, error: nil, sha256: a, mediaSource: "enclosure",
                   moreMedia: [MediaRecord(url: "https://m/b.png", source: "html", status: .failed, error: "HTTP 404", sha256: nil),
                               MediaRecord(url: "https://m/c.jpg", source: "html", status: .ok, error: nil, sha256: c)]),
        ItemRecord(itemID: "2", position: 1, title: "two", link: nil, published: nil, dateTaken: nil, author: nil, tags: [],
                   description: nil, mediaURL: "https://m/b.jpg", status: .ok, error: nil, sha256: b, mediaSource: "api"),
        ItemRecord(itemID: "3", position: 2, title: "three", link: nil, published: nil, dateTaken: nil, author: nil,
                   tags: [], description: nil, mediaURL: "https://m/404.jpg", status: .failed, error: "HTTP 404",
                   sha256: nil, mediaSource: "api"),
        ItemRecord(itemID: "4", position: 3, title: "four", link: nil, published: nil, dateTaken: nil, author: nil,
                   tags: [], description: nil, mediaURL: nil, status: .noImage, error: "no image in the feed", sha256: nil),
    ]

    /// The manifest a sync (or prune) writes of them: `b`'s original evicted, `c` evicted whole.
    static func manifest() -> Data {
        var shown = stored
        shown[1].status = .evictedOriginal
        shown[0].moreMedia[1].status = .evicted
        let paths = [
            a: StoredPaths(original: CacheLayout.originalPath(sha256: a, fileExtension: "jpg"),
                           thumbnails: ["40x40": CacheLayout.thumbnailPath(originalSHA256: a, size: "40x40")]),
            b: StoredPaths(original: nil, thumbnails: ["80x80": CacheLayout.thumbnailPath(originalSHA256: b, size: "80x80")]),
            logo: StoredPaths(original: CacheLayout.originalPath(sha256: logo, fileExtension: "png"), thumbnails: [:]),
        ]
        let validators = ["https://m/a.jpg": MediaValidators(etag: "\"a1\"", lastModified: nil)!,
                          "https://m/c.jpg": MediaValidators(etag: nil, lastModified: "Mon, 30 Nov 2026 00:00:00 GMT")!,
                          "https://f/logo.png": MediaValidators(etag: "\"logo\"", lastModified: nil)!]
        return Data(ManifestWriter.bytes(feed: feed, updatedAt: 1_795_957_000, items: shown, paths: paths,
                                         validators: validators, primarySize: "80x80"))
    }

    @Test func aManifestGivesBackTheRowsTheSyncStored() throws {
        let rows = try ManifestRows.read(Self.manifest()) { $0 == Self.feed.url ? Self.feed.lastSync : nil }
        #expect(rows.feed == Self.feed)
        #expect(rows.items == Self.stored, "evicted statuses go back to the ok they are derived from")
        #expect(rows.gallerySize == "80x80")
        #expect(rows.media == [
            .init(url: "https://f/logo.png", sha256: Self.logo, etag: "\"logo\"", lastModified: nil, showsOriginal: true),
            .init(url: "https://m/a.jpg", sha256: Self.a, etag: "\"a1\"", lastModified: nil, showsOriginal: true),
            .init(url: "https://m/c.jpg", sha256: Self.c, etag: nil, lastModified: "Mon, 30 Nov 2026 00:00:00 GMT"),
            .init(url: "https://m/b.jpg", sha256: Self.b, etag: nil, lastModified: nil),
        ], "only what the manifest shows stored is lost when no file gives it")
    }

    /// An image's placeholder goes into its item and media entry, only when the index has one,
    /// and comes back to its original's row from the manifest.
    @Test func aPlaceholderGoesThroughTheManifestAndBackToItsOriginal() throws {
        let thumbHash = "HQgOBxhwd3dweHiHiHiIeIiH9/iFcH8I"
        let paths = [Self.a: StoredPaths(original: CacheLayout.originalPath(sha256: Self.a, fileExtension: "jpg"),
                                         thumbnails: [:], placeholder: thumbHash),
                     Self.b: StoredPaths(original: CacheLayout.originalPath(sha256: Self.b, fileExtension: "jpg"), thumbnails: [:])]
        let bytes = Data(ManifestWriter.bytes(feed: Self.feed, updatedAt: 1, items: Array(Self.stored.prefix(2)), paths: paths,
                                              primarySize: "40x40"))
        let manifest = try JSONDecoder().decode(Manifest.self, from: bytes)
        #expect(manifest.items.map(\.placeholder) == [thumbHash, nil])
        #expect(manifest.items[0].media.map(\.placeholder) == [thumbHash, nil, nil], "the first image's entry only")
        #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "\"placeholder\"").count == 3,
                "no key for an image without one")

        let rows = try ManifestRows.read(bytes)
        var content = ContentRows()
        content.originals = [OriginalRecord(sha256: Self.a, path: paths[Self.a]!.original!, bytes: 1, format: "jpeg",
                                            storedAt: 1, lastAccess: 1),
                             OriginalRecord(sha256: Self.b, path: paths[Self.b]!.original!, bytes: 1, format: "jpeg",
                                            storedAt: 1, lastAccess: 1)]
        content.takeManifestFields(from: [rows.media])
        #expect(content.originals.map(\.placeholder) == [thumbHash, nil])
    }

    @Test func withoutTheSidecarTheFeedLastSyncedWhenItsManifestChanged() throws {
        let rows = try ManifestRows.read(Self.manifest())
        #expect(rows.feed.lastSync == 1_795_957_000)
    }

    @Test func aManifestOfTheFirstSchemaReadsAsOneImagePerItem() throws {
        let old = """
        {"url": "https://old/feed.js", "title": "Old", "kind": "flickrPublic", "link": null, "attribution": null,
         "updated_at": "2026-11-29T13:00:00Z", "items": [
          {"id": "9", "title": "nine", "tags": [], "media_url": "https://m/9.jpg", "status": "evicted",
           "sha256": "\(Self.a)", "thumbnails": {}}]}
        """
        let rows = try ManifestRows.read(Data(old.utf8))
        #expect(rows.feed.lastSync == 1_795_957_200 && rows.feed.imageURL == nil && rows.feed.warnings.isEmpty)
        #expect(rows.feed.etag == nil && rows.feed.key == CacheLayout.feedKey(url: "https://old/feed.js"))
        let item = try #require(rows.items.first)
        #expect(item.status == .ok && item.sha256 == Self.a && item.mediaSource == nil && item.moreMedia.isEmpty)
        #expect(rows.media == [.init(url: "https://m/9.jpg", sha256: Self.a, etag: nil, lastModified: nil)])
    }

    @Test func onlyAnImageWithAHashWasEverOK() {
        #expect(ManifestRows.storedStatus("evicted", sha256: "x") == .ok)
        #expect(ManifestRows.storedStatus("evicted-original", sha256: "x") == .ok)
        #expect(ManifestRows.storedStatus("evicted", sha256: nil) == .evicted)
        #expect(ManifestRows.storedStatus("failed", sha256: nil) == .failed)
        #expect(ManifestRows.storedStatus("something newer", sha256: nil) == .failed)
    }

    @Test func aMediaURLGetsARowOnlyWhenItsOriginalIsStoredAndTheLaterFeedWins() throws {
        let older = try ManifestRows.read(Self.manifest()).media
        let newer: [ManifestRows.Media] = [.init(url: "https://m/a.jpg", sha256: Self.b, etag: "\"new\"", lastModified: nil)]
        var files = ContentRows()
        files.originals = [OriginalRecord(sha256: Self.a, path: "originals/aa/a.jpg", bytes: 1, format: "jpeg",
                                          storedAt: 10, lastAccess: 10)]
        files.thumbnails = [ThumbnailRecord(originalSHA256: Self.b, size: "80x80", bytes: 1,
                                            sha256: "t", storedAt: 20, lastAccess: 20)]
        files.originals.append(OriginalRecord(sha256: Self.b, path: "originals/bb/b.png", bytes: 1, format: "png",
                                              storedAt: 20, lastAccess: 20))
        let resources = IndexRebuilder.resources(named: [older, newer], files: files)
        #expect(resources.map(\.url) == ["https://m/a.jpg", "https://m/b.jpg"], "c and the logo have no original")
        #expect(resources[0].sha256 == Self.b && resources[0].etag == "\"new\"" && resources[0].fetchedAt == 20)
        #expect(resources[1].sha256 == Self.b && resources[1].contentType == "image/png")
        files.originals.removeLast()
        let withoutB = IndexRebuilder.resources(named: [older, newer], files: files)
        #expect(withoutB.map(\.url) == ["https://m/a.jpg"] && withoutB.first?.sha256 == Self.a,
                "b has thumbnails only, so no URL names it: a's URL keeps the image that has its original")
    }

    @Test func contentFilesAreCheckedBeforeTheyGetARow() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-rebuild-\(UUID().uuidString)")
        let layout = CacheLayout(root: root.path)
        let photo = Array("a photo".utf8), sha = Digest.sha256Hex(photo)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        let files: [(String, [UInt8])] = [
            (CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"), photo),
            (CacheLayout.originalPath(sha256: Self.a, fileExtension: "jpg"), Array("other bytes".utf8)),
            (CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40"), png),
            (CacheLayout.thumbnailPath(originalSHA256: Self.a, size: "80x80"), Array("taken as it is".utf8)),
        ]
        for (path, bytes) in files {
            try AtomicFile.makeDirectories(layout.absolute((path as NSString).deletingLastPathComponent))
            try AtomicFile.write(bytes, to: layout.absolute(path))
        }
        let rows = await ContentRows.read(files.map { CachePath($0.0) } + [CachePath("originals/aa/stray.jpg")], layout: layout)
        #expect(rows.originals.map(\.sha256) == [sha] && rows.originals.first?.format == "jpeg")
        #expect(rows.originals.first?.bytes == photo.count)
        let thumbnails = rows.thumbnails.sorted { $0.size < $1.size }
        #expect(thumbnails.map(\.size) == ["40x40", "80x80"] && thumbnails.first?.sha256 == Digest.sha256Hex(png))
        #expect(thumbnails.last?.originalSHA256 == Self.a, "a thumbnail has no hash of its own to be checked against")
        #expect(rows.rejected.count == 2, "\(rows.rejected)")
        #expect(rows.rejected.contains { $0.hasSuffix("content does not match its SHA-256") })
        #expect(rows.rejected.contains { $0.hasSuffix("not a content file's name") })
    }

    @Test func theDamagedIndexIsKeptAsideWithItsLogsUntilTheNextRepair() throws {
        #expect(DamagedIndexFiles.name(at: 1_795_957_200.7) == "index.sqlite.damaged-20261129T130000Z")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let layout = CacheLayout(root: root.path)
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: root.appendingPathComponent(name)) }
        func read(_ name: String) -> String? { try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) }
        try write("index.sqlite.damaged-20200101T000000Z", "an older one")
        try write("index.sqlite", "damaged")
        try write("index.sqlite-wal", "its log")
        try write(".tmp-new", "rebuilt")
        let files = DamagedIndexFiles(layout: layout)
        let kept = try #require(try files.replace(with: layout.absolute(".tmp-new"), at: 1_795_957_200))
        #expect(kept == "index.sqlite.damaged-20261129T130000Z")
        #expect(read("index.sqlite") == "rebuilt" && read(kept) == "damaged" && read(kept + "-wal") == "its log")
        #expect(read("index.sqlite-wal") == nil, "no log of the old file is left beside the new one")
        try write(".tmp-newer", "rebuilt again")
        #expect(try files.replace(with: layout.absolute(".tmp-newer"), at: 1_795_957_200) == kept + "-2")
        #expect(files.removeEarlier(keeping: kept).isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(left == ["index.sqlite", kept, kept + "-wal"])
    }

    @Test func theSidecarReadsBackAndANewerOneIsIgnored() throws {
        var state = SyncState()
        state.gallerySize = "40x40"
        state.lastSync = LastSyncCounters(at: 5, media: 3, downloaded: 1, reused: 2, failed: 0)
        state.feeds["https://f/feed.xml"] = .init(lastSync: 7)
        state.polls["https://gone/feed.xml"] = .init(ttl: 3600, pollAfter: 9, goneAt: 8)
        #expect(SyncState.decode(state.encoded()) == state)
        #expect(state.feedPolls == [FeedPoll(url: "https://gone/feed.xml", timeToLive: 3600, pollAfter: 9, goneAt: 8)])
        var newer = state
        newer.version = SyncState.currentVersion + 1
        #expect(SyncState.decode(newer.encoded()) == nil)
        #expect(SyncState.decode(Array("not json".utf8)) == nil)
    }
}
