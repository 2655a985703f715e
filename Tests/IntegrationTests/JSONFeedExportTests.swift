import Foundation
import XCTest

/// Issue 13: every mirrored feed is also `feeds/<key>/feed.json`, a JSON Feed 1.1 whose images
/// are the mirrored originals relative to the file, so a feed reader pointed at the served cache
/// reads the mirror with the source offline.
final class JSONFeedExportTests: XCTestCase {
    /// An RSS feed with a logo, an item of two images, one whose image is missing and a text-only one.
    func writeFeed(in site: FeedSite, base: String) throws {
        let names = site.photoNames
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel><title>Photos &amp; "notes"</title><link>https://example.org/</link>
        <image><url>\(base)/photos/\(names[2])</url><title>logo</title><link>https://example.org/</link></image>
        <item><title>Two photos</title><link>https://example.org/two</link><guid>two</guid>
          <author>jane@example.org (Jane)</author><category>x</category>
          <pubDate>Sun, 08 Nov 2026 10:00:00 GMT</pubDate>
          <description>&lt;p&gt;hello &amp;amp; &quot;quotes&quot;&lt;/p&gt;</description>
          <media:content url="\(base)/photos/\(names[0])" medium="image" type="image/jpeg"/>
          <enclosure url="\(base)/photos/\(names[1])" length="1" type="image/jpeg"/></item>
        <item><title>Lost photo</title><link>https://example.org/lost</link><guid>lost</guid>
          <pubDate>Sat, 07 Nov 2026 10:00:00 GMT</pubDate>
          <enclosure url="\(base)/photos/missing.jpg" length="1" type="image/jpeg"/></item>
        <item><title>Just words</title><guid>words</guid></item>
        </channel></rss>
        """.utf8).write(to: site.root.appendingPathComponent("feed.rss"))
    }

    func testEveryImageOfTheJSONFeedIsInTheCacheAndAReaderOfTheServedCacheNeedsNoSource() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try writeFeed(in: site, base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        let sync = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.rss")])
        XCTAssertEqual(sync.status, 1, "the missing photo fails\n\(sync.stderr)")
        let folder = try XCTUnwrap(try CacheInspection.firstFeed(fromSummary: sync.stdout)["manifest"] as? String)
            .replacingOccurrences(of: "/manifest.json", with: "")

        let feedFile = cache.appendingPathComponent("\(folder)/feed.json")
        let feed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: feedFile)) as? [String: Any])
        XCTAssertEqual(feed["version"] as? String, "https://jsonfeed.org/version/1.1")
        XCTAssertEqual(feed["title"] as? String, "Photos & \"notes\"")
        XCTAssertEqual(feed["home_page_url"] as? String, "https://example.org/")
        let items = try XCTUnwrap(feed["items"] as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["id"] as? String }, ["two", "lost", "words"], "newest first, as on the page")
        for item in items {
            XCTAssertTrue((item["content_html"] is String) != (item["content_text"] is String), "\(item)")
        }
        XCTAssertEqual(items[0]["content_html"] as? String, "<p>hello &amp; \"quotes\"</p>")
        XCTAssertEqual(items[2]["content_text"] as? String, "Just words")
        XCTAssertEqual(items[0]["date_published"] as? String, "2026-11-08T10:00:00Z")
        XCTAssertNil(items[1]["image"], "a failed image is left out")

        let images = [feed["icon"], feed["favicon"]].compactMap { $0 as? String }
            + items.compactMap { $0["image"] as? String }
            + items.flatMap { ($0["attachments"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String } }
        XCTAssertEqual(images.count, 4, "the logo (original and thumbnail), the item's image and its second one")
        let root = cache.standardizedFileURL.path + "/"
        var resolved: [String] = []
        for image in images {
            let path = URL(string: image, relativeTo: feedFile)?.standardizedFileURL.path ?? image
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(image) resolves to \(path)")
            XCTAssertTrue(path.hasPrefix(root), path)
            resolved.append(String(path.dropFirst(root.count)))
        }
        let originals = Set(CacheDisk.files(in: cache, under: "originals"))
        XCTAssertEqual(Set(resolved.filter { $0.hasPrefix("originals/") }), originals,
                       "the logo, the item's photo and its second one: every original in the cache")

        let page = try String(contentsOf: cache.appendingPathComponent("\(folder)/index.html"), encoding: .utf8)
        let head = try XCTUnwrap(page.components(separatedBy: "</head>").first)
        XCTAssertTrue(head.contains("<link rel=\"alternate\" type=\"application/feed+json\" "
            + "title=\"Photos &amp; &quot;notes&quot;\" href=\"feed.json\">"), head)
        XCTAssertTrue(head.contains("default-src 'none'"), "the page keeps its Content-Security-Policy")
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("1 JSON Feed and"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage, 0 stale"), "feed.json is not garbage:\n\(verify.stderr)")
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [])

        // A reader of the served cache, with the source gone: photomirror itself, into a second cache.
        server.stop()
        let serve = try ServeProcess(cache: cache)
        defer { serve.stop() }
        let served = try RawHTTP.request(port: serve.port, "GET", "/\(folder)/feed.json")
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(served.header("Content-Type"), "application/json")
        let copy = cache.deletingLastPathComponent().appendingPathComponent("copy")
        let reread = try photomirror.run(["sync", "--json", "--cache", copy.path, "\(serve.url)\(folder)/feed.json"])
        XCTAssertEqual(reread.status, 0, "every image the JSON Feed names is served from the cache\n\(reread.stderr)")
        let copied = try CacheInspection.firstFeed(fromSummary: reread.stdout)
        XCTAssertEqual(copied["kind"] as? String, "jsonFeed")
        XCTAssertEqual(copied["ok"] as? Int, 1)
        XCTAssertEqual(copied["no_image"] as? Int, 2, "the failed and the text-only item have no image to give")
        XCTAssertEqual(Set(CacheDisk.files(in: copy, under: "originals")), originals,
                       "the same bytes: the item's two photos and the logo")
    }

    func testAnUnchangedSyncLeavesTheJSONFeedAndRepairRewritesAStaleOrMissingOne() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let key = try CacheDisk.sha256Hex(Data(feeds.older.utf8)).prefix(16)
        let path = cache.appendingPathComponent("feeds/\(key)/feed.json").path
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        // A change of the source that only the manifest shows (the photos' dates taken) rewrites
        // the manifest but leaves the JSON Feed, whose bytes stay the same, and its validators.
        let manifest = cache.appendingPathComponent("feeds/\(key)/manifest.json").path
        let manifestInode = try FileManager.default.attributesOfItem(atPath: manifest)[.systemFileNumber] as? Int
        let source = feeds.server.root.appendingPathComponent("older.js")
        try Data(try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "-08:00", with: "-07:00").utf8)
            .write(to: source)
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        XCTAssertNotEqual(try FileManager.default.attributesOfItem(atPath: manifest)[.systemFileNumber] as? Int, manifestInode)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int, inode)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), written)

        let other = #"{"version": "https://jsonfeed.org/version/1.1", "title": "old", "items": [{"id": "1", "content_text": ""}]}"#
        try Data(other.utf8).write(to: URL(fileURLWithPath: path))
        let stale = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(stale.status, 0, "stale is not damage\n\(stale.stderr)")
        XCTAssertTrue(stale.stderr.contains("stale: feeds/\(key)/feed.json: lists other items than its manifest"), stale.stderr)
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--repair", "--cache", cache.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), written, "rewritten from the index")

        try FileManager.default.removeItem(atPath: path)
        let missing = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(missing.status, 1, "the feed's pages link it\n\(missing.stderr)")
        XCTAssertTrue(missing.stderr.contains("links to missing feeds/\(key)/feed.json"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("JSON Feed of \(feeds.older) is missing"), missing.stderr)
        let repair = try feeds.photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), written)
        let after = try feeds.photomirror.run(["verify", "--cache", cache.path])
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage, 0 stale"), after.stderr)
    }
}
