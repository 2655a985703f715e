import Foundation
import XCTest

/// A sync of more feeds than it publishes at once: each feed's documents are read through a
/// read-only connection that earlier feeds used too, and must show the rows settled just before.
final class ManyFeedsPublishingTests: XCTestCase {
    func testEveryFeedsDocumentsShowItsSettledRows() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 6))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let names = site.photoNames
        // Six feeds of two photos each, every photo in two feeds: three feeds a connection.
        for number in 0..<6 {
            try site.writeFlickrFeed(at: "feed\(number).js", base: base, names: [names[number], names[(number + 1) % 6]])
        }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let urls = (0..<6).map { server.url("feed\($0).js") }

        for round in 1...2 {
            let result = try Photomirror().run(["sync", "--json", "--cache", cache.path] + urls)
            XCTAssertEqual(result.status, 0, result.stderr)
            let feeds = try CacheInspection.feeds(fromSummary: result.stdout)
            XCTAssertEqual(feeds.count, 6, "\(feeds)")
            for feed in feeds {
                let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
                XCTAssertEqual(items.map { $0["status"] as? String }, Array(repeating: "ok", count: round + 1),
                               "round \(round), \(feed["url"] ?? "")")
                for item in items {
                    let thumbnail = try XCTUnwrap(item["thumbnail"] as? String, "round \(round): \(item)")
                    XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent(thumbnail).path), thumbnail)
                    let manifest = try XCTUnwrap(feed["manifest"] as? String)
                    let page = cache.appendingPathComponent(manifest).deletingLastPathComponent().appendingPathComponent("index.html")
                    XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains(thumbnail),
                                  "round \(round): \(page.path) shows \(thumbnail)")
                }
            }
            // The second round changes every feed: one more photo each, already in the cache.
            for number in 0..<6 {
                try site.writeFlickrFeed(at: "feed\(number).js", base: base,
                                         names: [names[number], names[(number + 1) % 6], names[(number + 2) % 6]])
            }
        }
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }
}
