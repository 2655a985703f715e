import Foundation
import PMSupport
import XCTest

/// A cache folder has one writer: a manifest its index does not hold lost its rows (issue 22,
/// item 6: a `-wal` deleted after a killed sync), and is no other writer's. `verify` reports it
/// and its files; `verify --repair` adopts them back, so nothing is lost or downloaded again.
final class UnindexedManifestTests: XCTestCase {
    func testAManifestTheIndexLostIsReportedThenAdoptedBack() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "kept.js", base: base, names: Array(site.photoNames[0...1]))
        try site.writeFlickrFeed(at: "lost.js", base: base, names: Array(site.photoNames[2...3]))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache.path, server.url("kept.js")]).status, 0)
        // The index as it was before the second feed's sync: what losing that sync's rows leaves.
        let index = cache.appendingPathComponent("index.sqlite")
        let before = try Data(contentsOf: index)
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache.path, server.url("lost.js")]).status, 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
        try before.write(to: index)

        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        let lostKey = ObjectStoreSyncTests.feedKey(server.url("lost.js"))
        XCTAssertTrue(verify.stderr.contains("feeds/\(lostKey)/manifest.json: manifest of a feed the index does not hold"),
                      verify.stderr)
        let lostHash = Digest.sha256Hex(try Data(contentsOf: site.root.appendingPathComponent("photos/\(site.photoNames[2])")))
        XCTAssertTrue(verify.stderr.contains(lostHash), "its files are not reported: \(verify.stderr)")

        let repair = try photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertTrue(repair.stderr.contains("adopted 1 feed"), repair.stderr)
        XCTAssertTrue(repair.stderr.contains("after repair: ok, 0 garbage"), repair.stderr)
        let originals = try FileManager.default.subpathsOfDirectory(atPath: cache.appendingPathComponent("originals").path)
            .filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(originals.count, 4, "the repair deleted the lost feed's files")
        let stats = try photomirror.run(["stats", "--json", "--cache", cache.path])
        XCTAssertTrue(stats.stdout.contains("\"feeds\" : 2"), stats.stdout)

        server.clearLog()
        let resync = try photomirror.run(["sync", "--cache", cache.path, server.url("lost.js")])
        XCTAssertEqual(resync.status, 0, resync.stderr)
        XCTAssertFalse(server.requests.contains { $0.contains("/photos/") }, "adopted images downloaded again: \(server.requests)")
        let after = try photomirror.run(["verify", "--deep", "--cache", cache.path])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage"), after.stderr)
    }
}
