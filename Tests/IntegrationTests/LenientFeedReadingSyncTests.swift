import Foundation
import XCTest

/// Issue 24's feed patterns, synced by the real binary from a local server: a video's thumbnail
/// inside its `media:content`, a post's cover beside its HTML images (and a smaller copy of one of
/// them that is not), and a JSON Feed whose every item has one mistyped optional field.
final class LenientFeedReadingSyncTests: XCTestCase {
    private func sync(_ server: FixtureServer, _ path: String) throws -> (result: Photomirror.Result, cache: URL, feed: [String: Any]) {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--json", "--cache", cache.path, server.url(path)])
        return (result, cache, try CacheInspection.firstFeed(fromSummary: result.stdout))
    }

    private func media(_ items: [[String: Any]], _ key: String) -> [[String]] {
        items.map { (($0["media"] as? [[String: Any]]) ?? []).compactMap { $0[key] as? String } }
    }

    func testAVideosThumbnailInsideItsMediaContentIsMirrored() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let (base, names) = ("http://127.0.0.1:\(server.port)", site.photoNames)
        try Data("""
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Films</title>
        <item><title>Player only</title><guid>v1</guid>
          <media:content><media:player url="https://player.example.org/1"/>
            <media:thumbnail url="\(base)/photos/\(names[0])" width="640" height="360"/></media:content></item>
        <item><title>Grouped video</title><guid>v2</guid><media:group>
          <media:content url="https://video.example.org/2.mp4" type="video/mp4">
            <media:thumbnail url="\(base)/photos/\(names[1])"/></media:content></media:group></item>
        </channel></rss>
        """.utf8).write(to: site.root.appendingPathComponent("films.rss"))

        let (result, cache, feed) = try sync(server, "films.rss")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(feed["ok"] as? Int, 2, "no item is \"no image\"")
        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertEqual(media(items, "source"), [["media:thumbnail"], ["media:thumbnail"]])
        XCTAssertEqual(media(items, "url"), [["\(base)/photos/\(names[0])"], ["\(base)/photos/\(names[1])"]])
        XCTAssertEqual(media(items, "status"), [["ok"], ["ok"]])
        XCTAssertFalse(server.requests.contains { $0.contains("2.mp4") }, "the video itself is never fetched")
    }

    func testACoverBesideTheHTMLImagesIsKeptAndASmallerCopyOfOneIsNot() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let (base, names) = ("http://127.0.0.1:\(server.port)", site.photoNames)
        // Blogger's layout: the post's photo at full size, its thumbnail a 72 px crop of it.
        let blogger = site.root.appendingPathComponent("img/AAAA/s1600")
        try FileManager.default.createDirectory(at: blogger, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: site.root.appendingPathComponent("photos/\(names[3])"),
                                         to: blogger.appendingPathComponent("lake.jpg"))
        try Data("""
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Blog</title>
        <item><title>With a cover</title><guid>p1</guid>
          <media:thumbnail url="\(base)/photos/\(names[0])" width="1200" height="630"/>
          <description>&lt;p&gt;&lt;img src="\(base)/photos/\(names[1])"&gt;&lt;/p&gt;</description></item>
        <item><title>Thumbnail of its second picture</title><guid>p2</guid>
          <media:thumbnail url="\(base)/img/AAAA/s72-c/lake.jpg" width="72" height="72"/>
          <description>&lt;img src="\(base)/photos/\(names[2])"&gt; &lt;img src="\(base)/img/AAAA/s1600/lake.jpg"&gt;</description></item>
        </channel></rss>
        """.utf8).write(to: site.root.appendingPathComponent("blog.rss"))

        let (result, cache, feed) = try sync(server, "blog.rss")
        XCTAssertEqual(result.status, 0, result.stderr)
        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertEqual(media(items, "url"), [["\(base)/photos/\(names[0])", "\(base)/photos/\(names[1])"],
                                             ["\(base)/img/AAAA/s1600/lake.jpg", "\(base)/photos/\(names[2])"]])
        XCTAssertEqual(media(items, "source"), [["media:thumbnail", "html"], ["html", "html"]])
        XCTAssertEqual(media(items, "status"), [["ok", "ok"], ["ok", "ok"]])
        XCTAssertEqual(items.compactMap { $0["media_url"] as? String },
                       ["\(base)/photos/\(names[0])", "\(base)/img/AAAA/s1600/lake.jpg"], "the gallery shows the cover")
        XCTAssertFalse(server.requests.contains { $0.contains("s72-c") }, "a smaller copy is not fetched: \(server.requests)")
    }

    func testAJSONFeedWhoseItemsAllHaveAMistypedFieldIsMirroredWithOneWarning() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let items: [[String: Any]] = site.photoNames.enumerated().map { number, name in
            ["id": "\(number)", "title": "photo \(number)", "tags": "harbour", "image": "\(base)/photos/\(name)"]
        }
        let document: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Log", "items": items]
        try JSONSerialization.data(withJSONObject: document).write(to: site.root.appendingPathComponent("feed.json"))

        let (result, cache, feed) = try sync(server, "feed.json")
        XCTAssertEqual(result.status, 0, "the feed is not refused\n\(result.stderr)")
        XCTAssertEqual(feed["ok"] as? Int, 3)
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: cache.appendingPathComponent(try XCTUnwrap(feed["manifest"] as? String)))) as? [String: Any]
        let warning = #"item field "tags" should be an array but is a string: read as a one-element list (3 items)"#
        XCTAssertEqual(manifest?["warnings"] as? [String], [warning])
        XCTAssertEqual(result.stderr.components(separatedBy: "tags").count - 1, 1, "told once: \(result.stderr)")
        let tags = (manifest?["items"] as? [[String: Any]] ?? []).map { $0["tags"] as? [String] }
        XCTAssertEqual(tags, [["harbour"], ["harbour"], ["harbour"]])
    }
}
