import Foundation
import XCTest

/// `sync --feeds`: a nested OPML file and a text list, naming feeds served on 127.0.0.1.
final class SubscriptionListSyncTests: XCTestCase {
    func testOPMLAndTextListSyncEveryFeedOnce() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for (number, name) in site.photoNames.enumerated() {
            try site.writeFlickrFeed(at: "feed\(number).js", base: base, names: [name])
        }
        let lists = try Paths.temporaryFolder()
        // feed2 is an operand and in the list, feed1 in both files: each must be fetched once.
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Subscriptions</title></head><body>
          <outline text="Photos"><outline text="Flickr"><outline text="Tagged">
            <outline text="Zero" type="rss" xmlUrl="\(server.url("feed0.js"))"/>
          </outline></outline></outline>
          <outline text="One" xmlUrl="\(server.url("feed1.js"))"/>
        </body></opml>
        """.utf8).write(to: lists.appendingPathComponent("subscriptions.opml"))
        try Data("# more\r\n\r\n\(server.url("feed2.js"))\r\n\(server.url("feed1.js"))\r\n".utf8)
            .write(to: lists.appendingPathComponent("list.txt"))
        let cache = lists.appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--json", "--cache", cache.path, server.url("feed2.js"),
                                            "--feeds", lists.appendingPathComponent("subscriptions.opml").path,
                                            "--feeds", lists.appendingPathComponent("list.txt").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let feeds = try CacheInspection.feeds(fromSummary: result.stdout)
        XCTAssertEqual(feeds.count, 3, "\(feeds)")
        XCTAssertEqual(feeds.map { $0["ok"] as? Int }, [1, 1, 1])
        for number in 0..<3 {
            XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET /feed\(number).js ") }.count, 1,
                           "feed\(number) fetched once\n\(server.requests)")
        }
    }

    func testBadLineIsAUsageErrorNamingTheLine() throws {
        let lists = try Paths.temporaryFolder()
        let list = lists.appendingPathComponent("list.txt")
        try Data("# feeds\nhttps://example.org/feed.rss\n\nexample.org/no-scheme\n".utf8).write(to: list)
        let result = try Photomirror().run(["sync", "--cache", lists.appendingPathComponent("cache").path,
                                            "--feeds", list.path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("list.txt: line 4:"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lists.appendingPathComponent("cache").path),
                       "nothing is synced from a bad list")
    }

    func testEmptyListIsAUsageError() throws {
        let lists = try Paths.temporaryFolder()
        let list = lists.appendingPathComponent("empty.txt")
        try Data("# nothing yet\n".utf8).write(to: list)
        let result = try Photomirror().run(["sync", "--feeds", list.path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("at least one feed"), result.stderr)
    }
}
