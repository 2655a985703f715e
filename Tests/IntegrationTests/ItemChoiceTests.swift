import Foundation
import XCTest

/// Issue 25, item 2: `--max-items` takes the newest N of every feed kind, `--since` the items
/// published since then.
final class ItemChoiceTests: XCTestCase {
    private func itemIDs(_ result: Photomirror.Result, cache: URL) throws -> [String] {
        let feed = try CacheInspection.firstFeed(fromSummary: result.stdout)
        return try CacheInspection.manifestItems(cache: cache, feed: feed).compactMap { $0["id"] as? String }.sorted()
    }

    func testMaxItemsTakesTheNewestOfRSSAtomAndJSONFeed() throws {
        let dated = try DatedSite(photos: 3)
        for kind in DatedFeed.allCases {
            let feed = try dated.feed(kind, items: 6)
            let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
            let result = try Photomirror().run(["sync", "--json", "--max-items", "2", "--cache", cache.path, feed])
            XCTAssertEqual(result.status, 0, "\(kind): \(result.stderr)")
            XCTAssertEqual(try itemIDs(result, cache: cache), ["item-0", "item-1"], "\(kind): listed oldest first, the newest two")
            XCTAssertEqual(try CacheInspection.firstFeed(fromSummary: result.stdout)["items"] as? Int, 2, "\(kind)")
        }
        let shown = try Photomirror().run(["feed", "--json", "--max-items", "1", try dated.feed(.rss, items: 6)])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let items = (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]]
        XCTAssertEqual(items?.compactMap { $0["id"] as? String }, ["item-0"])
    }

    func testSinceTakesOnlyItemsPublishedSinceThen() throws {
        let dated = try DatedSite(photos: 3)
        let since = DatedFeed.iso(dated.newest.addingTimeInterval(-2.5 * 86_400))
        for kind in DatedFeed.allCases {
            let feed = try dated.feed(kind, items: 6)
            let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
            let result = try Photomirror().run(["sync", "--json", "--since", since, "--cache", cache.path, feed])
            XCTAssertEqual(result.status, 0, "\(kind): \(result.stderr)")
            XCTAssertEqual(try itemIDs(result, cache: cache), ["item-0", "item-1", "item-2"], "\(kind)")
        }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let bad = try Photomirror().run(["sync", "--since", "last tuesday", "--cache", cache.path, "file:///x.rss"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--since: \"last tuesday\" is neither a duration"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path))
    }
}
