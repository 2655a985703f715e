import Foundation
import XCTest

/// The walking skeleton end to end: the real binary mirrors a JSONP feed of real photos served
/// on 127.0.0.1, re-syncs without downloading, and `verify` agrees.
final class SyncFlickrTests: XCTestCase {
    func testJSONPFeedYieldsThumbnailsAndResyncFetchesNoImage() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()

        let first = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(first.status, 0, first.stderr)
        let feed = try CacheInspection.firstFeed(fromSummary: first.stdout)
        XCTAssertEqual(feed["items"] as? Int, 4)
        XCTAssertEqual(feed["ok"] as? Int, 4)
        XCTAssertEqual(feed["downloaded"] as? Int, 4)

        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertEqual(items.count, 4)
        for item in items {
            XCTAssertEqual(item["status"] as? String, "ok")
            XCTAssertTrue((item["title"] as? String ?? "").contains("isn't it \\'lovely\\'"), "\(item["title"] ?? "")")
            let thumbnail = try XCTUnwrap(item["thumbnail"] as? String)
            let size = pngSize(try Data(contentsOf: cache.appendingPathComponent(thumbnail)))
            XCTAssertEqual(size?.width, 40)
            XCTAssertEqual(size?.height, 40)
            let original = try XCTUnwrap(item["original"] as? String)
            XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent(original).path))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("index.html").path))

        let feedFolder = cache.appendingPathComponent((feed["manifest"] as! NSString).deletingLastPathComponent)
        let files = ["index.html", "manifest.json", "feed.json"].map { feedFolder.appendingPathComponent($0).path }
        let before = try files.map { try FileManager.default.attributesOfItem(atPath: $0) }
        let rootBefore = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        Thread.sleep(forTimeInterval: 1.1)  // the root page gives the sync time in whole seconds

        server.clearLog()
        let second = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.requests, ["GET /feed.js 304"], "a re-sync asks for the feed only, with its validators")
        XCTAssertTrue(second.stdout.contains("\"reused\" : 4"), second.stdout)
        for (path, attributes) in zip(files, before) {
            let after = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual(after[.systemFileNumber] as? Int, attributes[.systemFileNumber] as? Int,
                           "\(path): an unchanged feed's files are not rewritten, so their ETag and Last-Modified stay")
            XCTAssertEqual(after[.modificationDate] as? Date, attributes[.modificationDate] as? Date)
        }
        let rootAfter = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertNotEqual(rootAfter, rootBefore, "the root page tells when each feed was last synced")

        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("verify ok"), verify.stderr)
    }

    func testFailedImagesFailAloneWithReasons() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try Data("<!doctype html><html><body>not a photo</body></html>".utf8)
            .write(to: site.root.appendingPathComponent("page.html"))
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)", extraMedia: [
            server.url("photos/missing.jpg"), server.url("page.html"), "file:///etc/passwd",
        ])
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(result.status, 1, "some items failed: exit 1\n\(result.stderr)")
        XCTAssertTrue(result.stderr.contains("HTTP 404"), result.stderr)
        XCTAssertTrue(result.stderr.contains("HTML page"), result.stderr)
        XCTAssertTrue(result.stderr.contains("unsupported URL scheme \"file\""), result.stderr)
        XCTAssertTrue(result.stderr.contains("2 ok, 3 failed"), result.stderr)
        XCTAssertFalse(CacheInspection.cache(cache, contains: "root:x:0:0"), "nothing of /etc/passwd in the cache")
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
    }
}

