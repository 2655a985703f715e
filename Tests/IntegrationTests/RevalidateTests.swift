import Foundation
import XCTest

/// `sync --revalidate`: conditional requests with the stored validators.
final class RevalidateTests: XCTestCase {
    func testUnchangedImagesAnswer304AndAChangedOneIsReplaced() throws {
        let photos = try Paths.photos(count: 12)
        let site = try FeedSite(photos: Array(photos.prefix(3)))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        XCTAssertEqual(try photomirror.run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")]).status, 0)

        server.clearLog()
        XCTAssertEqual(try photomirror.run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")]).status, 0)
        XCTAssertEqual(server.requests, ["GET /feed.js 304"], "without --revalidate image URLs are immutable")

        // The server now has other bytes under the first photo's URL.
        let changed = site.photoNames[0]
        let replacement = try Data(contentsOf: photos[11])
        try replacement.write(to: site.root.appendingPathComponent("photos/\(changed)"))
        server.clearLog()
        let revalidate = try photomirror.run(["sync", "--revalidate", "--json", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(revalidate.status, 0, revalidate.stderr)
        XCTAssertEqual(Set(server.requests), Set(["GET /feed.js 304", "GET /photos/\(changed) 200"]
            + site.photoNames.dropFirst().map { "GET /photos/\($0) 304" }))
        let feed = try CacheInspection.firstFeed(fromSummary: revalidate.stdout)
        XCTAssertEqual(feed["downloaded"] as? Int, 1)
        XCTAssertEqual(feed["reused"] as? Int, 2)
        XCTAssertEqual(feed["items"] as? Int, 3, "a 304 for the feed publishes its previous items")

        let items = try CacheDisk.itemsByPhoto(cache, feedURL: server.url("feed.js"))
        let item = try XCTUnwrap(items[changed])
        let newHash = try CacheDisk.sha256Hex(replacement)
        XCTAssertEqual(item["sha256"] as? String, newHash)
        let original = try XCTUnwrap(item["original"] as? String)
        XCTAssertTrue(original.contains(newHash))
        XCTAssertEqual(try Data(contentsOf: cache.appendingPathComponent(original)), replacement)
        let thumbnail = try XCTUnwrap(item["thumbnail"] as? String)
        XCTAssertEqual(pngSize(try Data(contentsOf: cache.appendingPathComponent(thumbnail)))?.width, 40)
        for name in site.photoNames.dropFirst() {
            XCTAssertEqual(items[name]?["status"] as? String, "ok")
        }
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache.path]).status, 0)
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])
    }
}
