import Foundation
import XCTest

/// `prune` end to end: two feeds of real photos, one older than the other, sharing images.
final class LifecycleTests: XCTestCase {
    func makeFeeds() throws -> TwoFeeds { try TwoFeeds.make() }

    func testTwoFeedsSharingImagesStoreEachOriginalOnce() throws {
        let feeds = try makeFeeds()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        feeds.server.clearLog()
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        XCTAssertEqual(feeds.server.requests.filter { $0.hasPrefix("GET /photos/") }, ["GET /photos/GreenMeadow.jpg 200"],
                       "the shared images are not fetched again")
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals").count, 5, "5 distinct photos, each stored once")
        let older = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        let newer = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.newer)
        for shared in ["FreshFlower.jpg", "Garden.jpg"] {
            XCTAssertEqual(older[shared]?["original"] as? String, newer[shared]?["original"] as? String)
        }
        let stats = try CacheDisk.json(try feeds.photomirror.run(["stats", "--json", "--cache", cache.path]).stdout)
        XCTAssertEqual((stats["originals"] as? [String: Any])?["count"] as? Int, 5)
        XCTAssertEqual(stats["items"] as? Int, 7)
        XCTAssertEqual(stats["feeds"] as? Int, 2)
        let lastSync = try XCTUnwrap(stats["last_sync"] as? [String: Any])
        XCTAssertEqual(lastSync["downloaded"] as? Int, 1)
        XCTAssertEqual(lastSync["reused"] as? Int, 2)
        XCTAssertEqual(try XCTUnwrap(lastSync["hit_ratio"] as? Double), 2.0 / 3.0, accuracy: 0.001)
    }

    func testPruneToTheNewestFeedKeepsItWholeAndEvictsTheOlderItems() throws {
        let feeds = try makeFeeds()
        // The limit: what the newer feed alone takes, plus 150 kB for what the older feed's rows,
        // pages and thumbnails add — less than Aqua.jpg (200 kB), the smallest original only the
        // older feed has, so both of the older feed's own originals must go.
        let alone = feeds.folder.appendingPathComponent("alone")
        XCTAssertEqual(try feeds.sync(alone, [feeds.newer]).status, 0)
        let limit = try CacheDisk.allocatedBytes(alone) + 150_000
        // `--max` trims to 80% of itself once over it: this one trims to `limit`.
        let maxFlag = limit * 5 / 4

        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        XCTAssertGreaterThan(try CacheDisk.allocatedBytes(cache), limit)

        XCTAssertGreaterThan(try CacheDisk.allocatedBytes(cache), maxFlag)
        let prune = try feeds.photomirror.run(["prune", "--json", "--max", String(maxFlag), "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        let report = try CacheDisk.json(prune.stdout)
        XCTAssertEqual(report["originals_evicted"] as? Int, 2)
        XCTAssertEqual(report["thumbnails_evicted"] as? Int, 0, "thumbnails go only when originals are not enough")

        for (photo, item) in try CacheDisk.itemsByPhoto(cache, feedURL: feeds.newer) {
            XCTAssertEqual(item["status"] as? String, "ok", photo)
            XCTAssertNotNil(item["original"] as? String, photo)
        }
        let older = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        for photo in ["Aqua.jpg", "Blinds.jpg"] {
            XCTAssertEqual(older[photo]?["status"] as? String, "evicted-original", photo)
            XCTAssertNil(older[photo]?["original"] as? String, photo)
            XCTAssertNotNil(older[photo]?["thumbnail"] as? String, "the thumbnail stays: \(photo)")
        }
        for photo in ["FreshFlower.jpg", "Garden.jpg"] {
            XCTAssertEqual(older[photo]?["status"] as? String, "ok", "shared with the newer feed: \(photo)")
        }
        XCTAssertLessThanOrEqual(try CacheDisk.apparentBytes(cache), limit, "du -sb")
        XCTAssertLessThanOrEqual(try CacheDisk.allocatedBytes(cache), limit, "du -s")
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
        let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage"), verify.stderr)

        // A later sync of the older feed leaves them so (their thumbnails are what the gallery
        // shows); only --refetch-evicted fetches the evicted originals.
        feeds.server.clearLog()
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertEqual(feeds.server.requests.filter { $0.hasPrefix("GET /photos/") }, [], "a plain sync fetches no evicted original")
        XCTAssertEqual(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)["Aqua.jpg"]?["status"] as? String, "evicted-original")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older], ["--refetch-evicted"]).status, 0)
        XCTAssertEqual(Set(feeds.server.requests.filter { $0.hasPrefix("GET /photos/") }),
                       ["GET /photos/Aqua.jpg 200", "GET /photos/Blinds.jpg 200"])
        XCTAssertEqual(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older).values.map { $0["status"] as? String },
                       Array(repeating: "ok", count: 4))
    }

    func testAnImageNoFeedListsAnyMoreGoesWholeBeforeAnyListedOriginal() throws {
        let feeds = try makeFeeds()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        try feeds.relistOlder(["FreshFlower.jpg", "Garden.jpg"])
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "thumbs").count, 4, "Aqua and Blinds are kept, unlisted")

        let limit = try CacheDisk.allocatedBytes(cache) - 1
        let dryRun = try feeds.photomirror.run(["prune", "--dry-run", "--max", String(limit), "--cache", cache.path])
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        // Trimmed to 80% of the limit: both unlisted images go whole, every listed original stays.
        XCTAssertTrue(dryRun.stderr.contains("would evict 2 originals and the thumbnails of 2 images (2 listed by no feed)"),
                      dryRun.stderr)
        let prune = try feeds.photomirror.run(["prune", "--json", "--max", String(limit), "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        let report = try CacheDisk.json(prune.stdout)
        XCTAssertEqual(report["originals_evicted"] as? Int, 2, "the least recently used images: unlisted since the last sync")
        XCTAssertEqual(report["thumbnails_evicted"] as? Int, 2, "no page shows their thumbnails, so they go too")
        XCTAssertEqual(report["unlisted"] as? Int, 2)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals").count, 2)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "thumbs").count, 2)
        XCTAssertEqual(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older).mapValues { $0["status"] as? String },
                       ["FreshFlower.jpg": "ok", "Garden.jpg": "ok"])
        let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage"), verify.stderr)

    }

    /// A prune counts the content files a compact walk finds against the rows: an orphan beside
    /// a missing file (equal in number to a clean cache's) still makes it list the files, find
    /// the orphan and delete it, and the missing file frees nothing it counted.
    func testPruneFindsAnOrphanBesideAMissingFileAndCollectsIt() throws {
        let feeds = try makeFeeds()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let originals = CacheDisk.files(in: cache, under: "originals").sorted()
        XCTAssertGreaterThanOrEqual(originals.count, 2)
        // The first original goes missing; a file no row names takes a place of its own.
        let missing = cache.appendingPathComponent(originals[0])
        let orphanHash = String(repeating: "e", count: 64)
        let orphan = cache.appendingPathComponent("originals/ee/\(orphanHash).jpg")
        try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: missing, to: orphan)

        let prune = try feeds.photomirror.run(["prune", "--json", "--max", String(try CacheDisk.allocatedBytes(cache) * 2),
                                               "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        let report = try CacheDisk.json(prune.stdout)
        XCTAssertEqual(report["garbage_removed"] as? Int, 1, prune.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path), "the orphan is collected")
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals").sorted(), Array(originals.dropFirst()))
    }

    func testEvictingEverythingLeavesPlaceholdersAndRefetchEvictedRestoresThem() throws {
        let feeds = try makeFeeds()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        let prune = try feeds.photomirror.run(["prune", "--max", "10KB", "--cache", cache.path])
        XCTAssertEqual(prune.status, 1, "the index alone is over 10 kB: exit 1\n\(prune.stderr)")
        XCTAssertTrue(prune.stderr.contains("still over"), prune.stderr)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals") + CacheDisk.files(in: cache, under: "thumbs"), [])
        for item in try CacheDisk.itemsByPhoto(cache, feedURL: feeds.newer).values {
            XCTAssertEqual(item["status"] as? String, "evicted")
            XCTAssertNil(item["thumbnail"] as? String)
        }
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [], "the gallery shows placeholders, not broken images")
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0)

        // Evicted for the limit: a plain sync of the same feed does not fetch them back.
        feeds.server.clearLog()
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        XCTAssertEqual(feeds.server.requests.filter { $0.hasPrefix("GET /photos/") }, [])
        XCTAssertEqual(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.newer).values.map { $0["status"] as? String },
                       ["evicted", "evicted", "evicted"])
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer], ["--refetch-evicted"]).status, 0)
        XCTAssertEqual(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.newer).values.map { $0["status"] as? String },
                       ["ok", "ok", "ok"])
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals").count, 3)
    }

    func testMaxAgeExpiresImagesNoSyncListedRecently() throws {
        let feeds = try makeFeeds()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older, feeds.newer]).status, 0)
        let fresh = try feeds.photomirror.run(["prune", "--json", "--max-age", "1h", "--cache", cache.path])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(try CacheDisk.json(fresh.stdout)["expired"] as? Int, 0)

        // Wait out a one-second age: every image is then older than it, whatever the machine's speed.
        Thread.sleep(forTimeInterval: 1.5)
        let dryRun = try feeds.photomirror.run(["prune", "--json", "--dry-run", "--max-age", "1s", "--cache", cache.path])
        XCTAssertEqual(try CacheDisk.json(dryRun.stdout)["expired"] as? Int, 5)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals").count, 5, "a dry run changes nothing")

        let expire = try feeds.photomirror.run(["prune", "--json", "--max-age", "1s", "--cache", cache.path])
        XCTAssertEqual(expire.status, 0, expire.stderr)
        XCTAssertEqual(CacheDisk.files(in: cache, under: "originals") + CacheDisk.files(in: cache, under: "thumbs"), [])
        XCTAssertEqual(Set(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older).values.map { $0["status"] as? String }),
                       ["evicted"])
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0)
    }
}
