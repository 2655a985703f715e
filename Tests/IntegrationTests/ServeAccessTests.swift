import Foundation
import XCTest

/// `serve` counts the images it hands out as used, so prune's least-recently-used order sees
/// the people looking at the gallery, not only the syncs.
final class ServeAccessTests: XCTestCase {
    /// The older feed's own photos: after syncing the older feed, then the newer one, the two
    /// least recently used images, one of which a prune evicts first.
    static let olderOnly = ["Aqua.jpg", "Blinds.jpg"]

    func testAThumbnailServedIsNotEvictedFirst() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        let control = feeds.folder.appendingPathComponent("control")
        try FileManager.default.copyItem(at: cache, to: control)

        // The control, an identical copy nobody reads: the prune evicts the least recently used
        // first, one of the older feed's own photos, and perhaps more (it trims to 80% of --max).
        let evictedUnread = try pruneOriginals(control, feeds)
        let served = try XCTUnwrap(Self.olderOnly.first { evictedUnread.contains($0) }, "\(evictedUnread)")
        let other = try XCTUnwrap(Self.olderOnly.first { $0 != served })

        let items = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        let thumbnail = try XCTUnwrap(items[served]?["thumbnail"] as? String)
        let otherThumbnail = try XCTUnwrap(items[other]?["thumbnail"] as? String)
        let serve = try ServeProcess(cache: cache)
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/" + thumbnail).status, 200)
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "HEAD", "/" + otherThumbnail).status, 200,
                       "a HEAD reads nothing and must not count")
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/thumbs/40x40/00/missing.png").status, 404)
        // The stop writes the last batch: no waiting for the flush interval.
        XCTAssertEqual(serve.stop(), 0, serve.server.stderr)
        XCTAssertFalse(serve.server.stderr.contains("not count"), serve.server.stderr)

        // The same prune on the served copy: the served image is now the most recent, so the
        // others go before it.
        let evicted = try pruneOriginals(cache, feeds)
        XCTAssertFalse(evicted.contains(served), "the served image is now the most recent: \(evicted)")
        XCTAssertTrue(evicted.contains(other), "\(evicted)")
        let after = try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
        XCTAssertEqual(after[served]?["status"] as? String, "ok")
        XCTAssertNotNil(after[served]?["original"] as? String, "the original of a served thumbnail stays")
    }

    /// Prunes with a limit just under the cache's disk use (a prune over its limit trims to 80%
    /// of it); returns the photos of the older feed that lost their original.
    func pruneOriginals(_ cache: URL, _ feeds: TwoFeeds) throws -> Set<String> {
        let limit = try CacheDisk.allocatedBytes(cache) - 4096
        let prune = try feeds.photomirror.run(["prune", "--json", "--max", String(limit), "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertGreaterThan(try CacheDisk.json(prune.stdout)["originals_evicted"] as? Int ?? 0, 0, prune.stdout)
        return Set(try CacheDisk.itemsByPhoto(cache, feedURL: feeds.older)
            .filter { $0.value["status"] as? String == "evicted-original" }.map(\.key))
    }

    /// A cache on a read-only file system (root: a tmpfs remounted read-only, EROFS) or in a
    /// folder the user cannot write (EACCES) is served as ever; serve says once that it cannot
    /// count, and stops cleanly.
    func testAReadOnlyCacheIsServedWithoutCounting() throws {
        let synced = try SyncedCache(photos: 1, scales: "1")
        let thumbnail = try synced.firstItemFiles().thumbnail
        let cache: URL
        if getuid() == 0 {
            let mountPoint = try Paths.temporaryFolder().appendingPathComponent("readonly")
            try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
            guard try Photomirror.shell("mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", mountPoint.path) == 0 else {
                throw XCTSkip("cannot mount a tmpfs here")
            }
            addTeardownBlock { _ = try? Photomirror.shell("umount", "-l", mountPoint.path) }
            cache = mountPoint.appendingPathComponent("cache")
            try FileManager.default.copyItem(at: synced.root, to: cache)
            XCTAssertEqual(try Photomirror.shell("mount", "-o", "remount,ro", mountPoint.path), 0)
        } else {
            cache = synced.root
            for (path, mode) in [(cache.appendingPathComponent("index.sqlite"), 0o444), (cache, 0o555)] {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path.path)
            }
            addTeardownBlock { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cache.path) }
        }
        let serve = try ServeProcess(cache: cache)
        let response = try RawHTTP.request(port: serve.port, "GET", "/" + thumbnail)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Array(try Data(contentsOf: cache.appendingPathComponent(thumbnail))))
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/" + thumbnail).status, 200)
        XCTAssertEqual(serve.stop(), 0, serve.server.stderr)
        let notes = serve.server.stderr.components(separatedBy: "\n").filter { $0.contains("not counting") }
        XCTAssertEqual(notes.count, 1, serve.server.stderr)
        XCTAssertTrue(notes.first?.hasSuffix("/index.sqlite is read-only") ?? false, serve.server.stderr)
    }
}
