import Foundation
import XCTest

/// Feeds as servers really send them, synced by the real binary from a local server: sloppy
/// XML, a charset named only by HTTP, images inside HTML, podcasts' itunes:image, items
/// without images, and the feed's own logo.
final class RealFeedShapesTests: XCTestCase {
    func testASloppyFeedWithImagesEverywhereIsMirroredWhole() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 5))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let names = site.photoNames
        let base = "http://127.0.0.1:\(server.port)"
        // A bare `&`, an HTML entity with no DTD, an undeclared media: prefix and windows-1252
        // bytes with no declared encoding: each of these refused the whole feed before.
        let feed = """
        <?xml version="1.0"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>News & views&nbsp;caf\u{E9}</title><link>https://example.org/</link>
        <image><url>\(base)/photos/\(names[4])</url><title>logo</title><link>https://example.org/</link></image>
        <item><title>Two pictures</title><guid isPermaLink="false">n1</guid>
          <media:content url="\(base)/photos/\(names[0])" medium="image"/>
          <description>&lt;p&gt;Look &lt;img src="/photos/\(names[1])" alt=""&gt; and a pixel
            &lt;img src="https://t.example/p.gif" width="1" height="1"&gt;&lt;/p&gt;</description></item>
        <item><title>Episode 4</title><link>https://example.org/4</link><guid>n2</guid>
          <itunes:image href="\(base)/photos/\(names[2])"/>
          <enclosure url="https://example.org/4.mp3" type="audio/mpeg" length="1"/></item>
        <item><title>Words only</title><description>No picture today.</description></item>
        <item><title>Broken link</title><guid>n4</guid><enclosure url="\(base)/photos/missing.jpg" type="image/jpeg"/></item>
        </channel></rss>
        """
        var bytes: [UInt8] = []
        for scalar in feed.unicodeScalars { bytes.append(scalar.value < 0x100 ? UInt8(scalar.value) : UInt8(ascii: "?")) }
        try Data(bytes).write(to: site.root.appendingPathComponent("news.rss"))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--json", "--cache", cache.path, server.url("news.rss")])
        XCTAssertEqual(result.status, 1, "only the missing image fails\n\(result.stderr)")
        XCTAssertTrue(result.stderr.contains("missing.jpg"), result.stderr)
        let summary = try CacheInspection.firstFeed(fromSummary: result.stdout)
        XCTAssertEqual(summary["items"] as? Int, 4)
        XCTAssertEqual(summary["ok"] as? Int, 2)
        XCTAssertEqual(summary["no_image"] as? Int, 1, "an item without an image is not a failure")
        XCTAssertEqual(summary["failed"] as? Int, 1)

        let manifestURL = cache.appendingPathComponent(try XCTUnwrap(summary["manifest"] as? String))
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as! [String: Any]
        XCTAssertEqual(manifest["title"] as? String, "News & views\u{A0}café")
        XCTAssertFalse((manifest["warnings"] as? [String] ?? []).isEmpty, "a repaired feed says so")
        let image = try XCTUnwrap(manifest["image"] as? [String: Any])
        XCTAssertNotNil(image["thumbnail"] as? String, "the feed's logo is mirrored")
        let items = try XCTUnwrap(manifest["items"] as? [[String: Any]])
        let media = items.map { ($0["media"] as? [[String: Any]]) ?? [] }
        XCTAssertEqual(media[0].compactMap { $0["source"] as? String }, ["media:content", "html"])
        XCTAssertEqual(media[0].compactMap { $0["url"] as? String }, ["\(base)/photos/\(names[0])", "\(base)/photos/\(names[1])"],
                       "the relative <img> is resolved against the feed (the item has no link), the tracking pixel skipped")
        XCTAssertEqual(media[0].compactMap { $0["status"] as? String }, ["ok", "ok"])
        XCTAssertEqual(items[0]["media_url"] as? String, "\(base)/photos/\(names[0])", "single-image clients see the first")
        XCTAssertEqual(media[1].compactMap { $0["source"] as? String }, ["itunes:image"])
        XCTAssertEqual(items[2]["status"] as? String, "no-image")
        XCTAssertTrue(media[2].isEmpty)
        for item in media.joined() where item["status"] as? String == "ok" {
            let original = try XCTUnwrap(item["original"] as? String)
            XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent(original).path), original)
        }
        let page = try String(contentsOf: manifestURL.deletingLastPathComponent().appendingPathComponent("index.html"),
                              encoding: .utf8)
        XCTAssertTrue(page.contains("+1 image"), "the card counts the item's further image")
        XCTAssertTrue(page.contains("class=\"logo\""))
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)

        let photoRequests = server.requests.filter { $0.hasPrefix("GET /photos/") }.count
        let again = try Photomirror().run(["sync", "--json", "--cache", cache.path, server.url("news.rss")])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET /photos/") }.count - photoRequests, 1,
                       "a re-sync asks only for the image that failed")
    }
}
