import Foundation
import XCTest

/// A first sync killed after some of its images were recorded but before its feed's pages were
/// written: the feed's items are pending in it, not listed by no feed.
final class InterruptedFirstSyncTests: XCTestCase {
    static let copies = 10

    /// A prune then keeps those images' thumbnails and publishes no root page linking the feed's
    /// missing page; the next sync fetches the feed in full and says what it did.
    func testAPruneAfterAKilledFirstSyncLeavesACleanCacheAndTheResyncIsNotUnchanged() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 12))
        // Ten copies of each photo (other bytes): at 0.1 s a request and two at a time, the
        // sync takes about 6 s, so batches of index writes are committed by their age (2 s).
        var names: [String] = []
        for copy in 1...Self.copies {
            for name in site.photoNames {
                var bytes = try Data(contentsOf: site.root.appendingPathComponent("photos/\(name)"))
                bytes.append(contentsOf: Array("copy \(copy)".utf8))
                try bytes.write(to: site.root.appendingPathComponent("photos/c\(copy)-\(name)"))
                names.append("c\(copy)-\(name)")
            }
        }
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.1"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)", names: names)
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        let photomirror = Photomirror()

        let first = try photomirror.start(["sync", "--jobs", "2", "--cache", cache.path, server.url("feed.js")],
                                          output: folder.appendingPathComponent("first.log"))
        // Killed with 100 of the 120 originals stored: the first batches' rows are in, the feed's
        // pages (written after the last image) are not. The deadline only catches a hang.
        let deadline = Date().addingTimeInterval(120)
        while CacheDisk.files(in: cache, under: "originals").count < 100, first.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let feedPages = CacheDisk.files(in: cache, under: "feeds").filter { $0.hasSuffix("/index.html") }
        XCTAssertEqual(feedPages, [], "the kill came after the feed's pages were written")
        let stats = try CacheDisk.json(try photomirror.run(["stats", "--json", "--cache", cache.path]).stdout)
        XCTAssertGreaterThan((stats["originals"] as? [String: Any])?["count"] as? Int ?? 0, 0, "the kill came before any image was recorded: \(stats)")

        let prune = try photomirror.run(["prune", "--max", "1MB", "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertFalse((prune.stdout + prune.stderr).contains("listed by no feed"), prune.stdout + prune.stderr)
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains(" 0 damaged"), verify.stderr)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])

        let resync = try photomirror.run(["sync", "--jobs", "2", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(resync.status, 0, resync.stderr)
        let said = resync.stdout + resync.stderr
        XCTAssertFalse(said.contains("unchanged"), "the feed was never synced whole: \(said)")
        XCTAssertTrue(said.contains("120 ok"), said)
        let after = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage, 0 stale"), after.stderr)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
    }
}
