import Foundation
import XCTest

/// Issue 25, item 2: `--min-bytes` leaves icons and spacers out, and says so as skipped, not failed.
final class SkippedImageTests: XCTestCase {
    /// A 1×1 transparent GIF: 43 bytes.
    static let spacer = Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")!

    func testAnImageUnderMinBytesIsSkippedNotFailed() throws {
        let dated = try DatedSite(photos: 2)
        try Self.spacer.write(to: dated.site.root.appendingPathComponent("photos/spacer.gif"))
        var items = dated.items(2)
        items.append(DatedFeed.Item(id: "spacer", date: dated.newest, media: dated.server.url("photos/spacer.gif")))
        try DatedFeed.jsonFeed.write(title: "Spacers", items: items, to: dated.site.root.appendingPathComponent("feed.json"))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--json", "--min-bytes", "1kB", "--cache", cache.path, dated.server.url("feed.json")])
        XCTAssertEqual(result.status, 0, "a skip is not a failure: \(result.stderr)")
        let document = try CacheDisk.json(result.stdout)
        let totals = try XCTUnwrap(document["totals"] as? [String: Any])
        XCTAssertEqual(totals["images_skipped"] as? Int, 1, result.stdout)
        XCTAssertEqual(totals["images_failed"] as? Int, 0, result.stdout)
        XCTAssertEqual((document["failures"] as? [Any])?.count, 0)
        let feed = try CacheInspection.firstFeed(fromSummary: result.stdout)
        let statuses = try CacheInspection.manifestItems(cache: cache, feed: feed).compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses.sorted(), ["ok", "ok", "skipped"])
        XCTAssertTrue(result.stderr.contains("2 ok, 0 failed, 1 skipped"), result.stderr)
        XCTAssertFalse(result.stderr.contains("failed:"), result.stderr)
        try JSONSchemaCheck.assertValid(result.stdout, against: "sync")
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
    }
}
