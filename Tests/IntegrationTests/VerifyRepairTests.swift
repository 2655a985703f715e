import Foundation
import PMCache
import XCTest

/// `verify` tells damage (exit 1) from garbage (exit 0); `verify --repair` fixes both.
final class VerifyRepairTests: XCTestCase {
    func testGarbageAloneIsReportedButNotDamage() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        let fanOut = try XCTUnwrap(CacheDisk.files(in: cache, under: "originals").first).split(separator: "/")[1]
        try Data("half a photo".utf8).write(to: cache.appendingPathComponent("originals/\(fanOut)/.tmp-interrupted"))
        try Data("nobody's".utf8).write(to: cache.appendingPathComponent("thumbs/40x40/\(fanOut)/orphan.png"))
        let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("temp file left by an interrupted writer"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("orphan"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 2 garbage"), verify.stderr)

        let repair = try feeds.photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertTrue(repair.stderr.contains("deleted 2 files"), repair.stderr)
        let after = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage"), after.stderr)
    }

    func testDamageExitsOneAndRepairMakesACacheThatVerifiesAndSyncsBackToWhole() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let items = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        // A lost original, a thumbnail overwritten with other bytes, a deleted manifest page.
        let lostOriginal = try XCTUnwrap(items["Aqua.jpg"]?["original"] as? String)
        let wrongThumbnail = try XCTUnwrap(items["Blinds.jpg"]?["thumbnail"] as? String)
        try FileManager.default.removeItem(at: cache.appendingPathComponent(lostOriginal))
        try Data("not the thumbnail".utf8).write(to: cache.appendingPathComponent(wrongThumbnail))
        let manifest = "feeds/\(try CacheDisk.sha256Hex(Data(feeds.older.utf8)).prefix(16))/manifest.json"
        try FileManager.default.removeItem(at: cache.appendingPathComponent(manifest))

        let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("\(lostOriginal): indexed but missing"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("\(wrongThumbnail): 17 bytes, index says"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("manifest of \(feeds.older) is missing"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("links to missing \(lostOriginal)"), "the gallery page too:\n\(verify.stderr)")

        let repair = try feeds.photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertTrue(repair.stderr.contains("dropped 2 index rows"), repair.stderr)
        let after = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage"), after.stderr)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
        let repaired = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        XCTAssertEqual(repaired["Aqua.jpg"]?["status"] as? String, "evicted-original")
        XCTAssertEqual(repaired["Blinds.jpg"]?["status"] as? String, "evicted", "its only thumbnail was wrong")
        XCTAssertEqual(repaired["Garden.jpg"]?["status"] as? String, "ok")

        // The next sync downloads Aqua again and remakes Blinds' thumbnail from its original.
        feeds.server.clearLog()
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertEqual(feeds.server.requests.filter { $0.hasPrefix("GET /photos/") }, ["GET /photos/Aqua.jpg 200"])
        XCTAssertEqual(Set(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older).values.map { $0["status"] as? String }),
                       ["ok"])
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0)
    }

    /// A prune killed after it dropped rows and before it rewrote the manifests leaves manifests
    /// naming files no row names. Neither the next sync (the feed answers 304, so its documents
    /// stay as they are) nor the next prune (which takes those files as garbage) may turn that
    /// into damage: the documents owed are rewritten first.
    func testDocumentsAKilledPruneOwedAreWrittenBeforeTheirFilesGo() async throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        // The killed prune's first step, and nothing after it.
        do {
            let index = try PhotoIndex(path: cache.appendingPathComponent("index.sqlite").path)
            let originals = try await index.allFiles().originals.map { ImageHash($0.sha256) }
            _ = try await index.dropRows(originals: originals, thumbnails: [])
        }
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0, "garbage, not damage")

        let copy = feeds.folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: cache, to: copy)
        let repair = try feeds.photomirror.run(["verify", "--repair", "--cache", copy.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", copy.path]).status, 0, "a repair deletes the garbage too")

        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let prune = try feeds.photomirror.run(["prune", "--max", "1GB", "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
        XCTAssertEqual(Set(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older).values.map { $0["status"] as? String }),
                       ["evicted-original"], "the manifest says what the index holds")
    }

    /// A sync stopped between its staging's commit and its first manifest (a put into a store
    /// can take a while) leaves a feed row no sync has published, without a manifest: its next
    /// sync writes one, so verify reports it as not written yet, not as damage. A feed that was
    /// published and lost its manifest stays damage.
    func testAStagedFeedWithoutItsFirstManifestIsNotDamage() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let key = ObjectStoreSyncTests.feedKey(feeds.older)
        try FileManager.default.removeItem(at: cache.appendingPathComponent("feeds/\(key)"))
        let lost = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(lost.status, 1, "a published feed's manifest is gone: \(lost.stderr)")
        XCTAssertTrue(lost.stderr.contains("feeds/\(key)/manifest.json: manifest of \(feeds.older) is missing"), lost.stderr)

        // No sync published it, and no root page lists it: what a first sync stopped before
        // its first manifest leaves.
        try FileManager.default.removeItem(at: cache.appendingPathComponent("index.html"))
        let index = cache.appendingPathComponent("index.sqlite").path
        XCTAssertEqual(try Photomirror.shell("python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); db.execute("DELETE FROM meta WHERE key = ?", ("content:" + sys.argv[2],)); db.commit()
            """, index, key), 0)
        let staged = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(staged.status, 0, staged.stderr)
        XCTAssertTrue(staged.stderr.contains("feeds/\(key)/manifest.json: manifest of \(feeds.older) is not written yet"), staged.stderr)
        XCTAssertTrue(staged.stderr.contains(" 0 damaged"), staged.stderr)

        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let synced = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertFalse(synced.stderr.contains("not written yet"), synced.stderr)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
    }

    /// Prune changes the index first, then manifests and the gallery, and deletes files last: a
    /// kill at any instant leaves garbage at worst, never damage.
    func testAKilledPruneNeverLeavesDamage() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 12))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        let photomirror = Photomirror()
        var generator = SystemRandomNumberGenerator()
        for round in 1...4 {
            XCTAssertEqual(try photomirror.run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")]).status, 0)
            let delay = Double.random(in: 0...0.15, using: &generator)
            try photomirror.kill(["prune", "--max", "100KB", "--cache", cache.path], after: delay,
                                 output: folder.appendingPathComponent("prune-\(round).log"))
            let verify = try photomirror.run(["verify", "--cache", cache.path])
            XCTAssertEqual(verify.status, 0, "round \(round), killed after \(delay) s:\n\(verify.stderr)")
            XCTAssertEqual(try CacheDisk.brokenReferences(cache), [], "round \(round)")
        }
    }
}
