import Foundation
import XCTest

/// A cache on a small tmpfs that its syncs fill: a prune or repair can still free space, the next
/// sync completes every image, and `sync --max` keeps under its limit as it stores.
final class FullDiskTests: XCTestCase {
    static let bigPhotos = ["Blinds.jpg", "Dune.jpg", "RainDrops.jpg", "TwoWings.jpg"]

    struct Setup {
        let site: FeedSite
        let server: FixtureServer
        let disk: URL
        let cache: URL
        /// Four large photos (4.3 MB) and the other eight (2.6 MB).
        let big: String
        let small: String
    }

    /// A tmpfs of `kibibytes` mounted for this test and unmounted after it, with the two feeds.
    func setUp(kibibytes: Int) throws -> Setup {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let site = try FeedSite(photos: try Paths.photos(count: 12))
        let server = try FixtureServer(root: site.root)
        addTeardownBlock { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "big.js", base: base, names: Self.bigPhotos)
        try site.writeFlickrFeed(at: "small.js", base: base, names: site.photoNames.filter { !Self.bigPhotos.contains($0) })
        let disk = try Paths.temporaryFolder().appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try Photomirror.shell("mount", "-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", disk.path)
        guard mount == 0 else { throw XCTSkip("cannot mount a tmpfs here (mount exited \(mount))") }
        addTeardownBlock { _ = try? Photomirror.shell("umount", "-l", disk.path) }
        return Setup(site: site, server: server, disk: disk, cache: disk.appendingPathComponent("cache"),
                     big: server.url("big.js"), small: server.url("small.js"))
    }

    func freeBytes(_ folder: URL) -> Int {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return -1 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    func allocatedBytes(_ file: URL) -> Int {
        var info = stat()
        return lstat(file.path, &info) == 0 ? Int(info.st_blocks) * 512 : 0
    }

    func assertEveryItemOK(_ cache: URL, feed: String, count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let items = try CacheDisk.itemsByPhoto(cache, feedURL: feed)
        XCTAssertEqual(items.count, count, file: file, line: line)
        for (photo, item) in items {
            XCTAssertEqual(item["status"] as? String, "ok", photo, file: file, line: line)
            XCTAssertNotNil(item["original"] as? String, photo, file: file, line: line)
        }
    }

    func assertVerifiesDeep(_ cache: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let verify = try Photomirror().run(["verify", "--deep", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr, file: file, line: line)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage"), verify.stderr, file: file, line: line)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [], file: file, line: line)
    }

    /// The disk fills during a sync, and then to the last byte (another program's file): a sync
    /// fails cleanly, `verify --repair` and `prune` still run (the reserve they release gives
    /// them room to open the index, drop rows and rewrite pages), and the next sync completes
    /// every image, with nothing deleted by hand.
    func testAPruneOnAFullDiskFreesSpaceAndTheNextSyncCompletesEveryImage() throws {
        let setup = try setUp(kibibytes: 6 << 10)
        let (cache, photomirror) = (setup.cache, Photomirror())
        let first = try photomirror.run(["sync", "--quiet", "--cache", cache.path, setup.big])
        XCTAssertEqual(first.status, 0, first.stderr)
        let reserve = cache.appendingPathComponent("space-reserve")
        XCTAssertGreaterThanOrEqual(allocatedBytes(reserve), 256 << 10, "a writer keeps the reserve while the disk has room")

        let filling = try photomirror.run(["sync", "--quiet", "--json", "--jobs", "1", "--cache", cache.path, setup.small])
        XCTAssertEqual(filling.status, 4, filling.stderr)
        XCTAssertTrue(filling.stderr.contains("No space left on device"), filling.stderr)
        XCTAssertTrue(filling.stderr.contains("the next sync completes the rest"), filling.stderr)
        let failure = (try? CacheDisk.json(filling.stdout))?["error"] as? [String: Any]
        XCTAssertTrue((failure?["message"] as? String ?? "").contains("No space left on device"), "--json: \(filling.stdout)")

        // Another program takes what the failed write left.
        let other = setup.disk.appendingPathComponent("other-program.bin")
        XCTAssertEqual(try Photomirror.shell("fallocate", "-l", String(freeBytes(setup.disk)), other.path), 0)
        XCTAssertEqual(freeBytes(setup.disk), 0, "the disk is full to the last byte")
        let stuck = try photomirror.run(["sync", "--quiet", "--cache", cache.path, setup.small])
        XCTAssertEqual(stuck.status, 4, stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("is full: `photomirror prune --max SIZE`"), "says what frees space: \(stuck.stderr)")

        let repair = try photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, "repair on a full disk: \(repair.stderr)")
        // Under what the older feed's originals take (4.3 MB), over what the new feed's can take
        // on this disk beside them (1.7 MB at most, however many the filling sync stored): the
        // older feed's originals go, and none of the new feed's, which a plain sync would leave evicted.
        let prune = try photomirror.run(["prune", "--max", "3MB", "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, "prune on a full disk: \(prune.stderr)")
        XCTAssertGreaterThanOrEqual(allocatedBytes(reserve), 256 << 10, "the prune made room and put the reserve back")

        let last = try photomirror.run(["sync", "--cache", cache.path, setup.small])
        XCTAssertEqual(last.status, 0, last.stderr)
        try assertEveryItemOK(cache, feed: setup.small, count: 8)
        try assertVerifiesDeep(cache)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path), "nothing outside the cache was touched")
    }

    /// `sync --max` on a disk that cannot hold both feeds but holds the limit: the sync prunes
    /// the older feed's originals as it stores the new one, instead of filling the disk first
    /// and pruning after. One download at a time, so that what is stored beyond the limit
    /// before the sync measures again is one photo at most.
    func testSyncMaxPrunesAsItStoresAndNeverFillsTheDisk() throws {
        // 6.8 MB: the two feeds take 7.1 MB.
        let setup = try setUp(kibibytes: 6656)
        let (cache, photomirror) = (setup.cache, Photomirror())
        let first = try photomirror.run(["sync", "--quiet", "--cache", cache.path, setup.big])
        XCTAssertEqual(first.status, 0, first.stderr)
        let limit = 5_000_000

        let capped = try photomirror.run(["sync", "--jobs", "1", "--max", String(limit), "--json", "--cache", cache.path, setup.small])
        XCTAssertEqual(capped.status, 0, capped.stderr)
        XCTAssertTrue(try CacheDisk.json(capped.stdout)["error"] is NSNull, capped.stdout)
        XCTAssertTrue(capped.stderr.contains("prune: "), capped.stderr)
        try assertEveryItemOK(cache, feed: setup.small, count: 8)
        XCTAssertLessThanOrEqual(try CacheDisk.allocatedBytes(cache), limit)
        let older = try CacheDisk.itemsByPhoto(cache, feedURL: setup.big)
        XCTAssertTrue(older.values.contains { $0["status"] as? String == "evicted-original" }, "\(older)")
        try assertVerifiesDeep(cache)
    }
}
