import Foundation
import XCTest

/// A feed longer than a page is split into `index.html` and `page-N.html`, and a feed that
/// shrinks loses the pages past its new end; `verify` finds every page's links intact.
final class GalleryPagingTests: XCTestCase {
    func testLongFeedsArePagedAndShrinkingRemovesStalePages() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let missing = (0..<205).map { server.url("photos/missing-\($0).jpg") }
        try site.writeFlickrFeed(at: "feed.js", base: base, extraMedia: missing)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let first = try Photomirror().run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(first.status, 1, "the missing photos fail")

        let folder = try XCTUnwrap(FileManager.default.contentsOfDirectory(
            atPath: cache.appendingPathComponent("feeds").path).first.map { cache.appendingPathComponent("feeds/\($0)") })
        let page1 = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let page2 = try String(contentsOf: folder.appendingPathComponent("page-2.html"), encoding: .utf8)
        XCTAssertEqual(page1.components(separatedBy: "<li class=\"item\">").count - 1, 200)
        XCTAssertEqual(page2.components(separatedBy: "<li class=\"item\">").count - 1, 7)
        XCTAssertTrue(page1.contains("href=\"page-2.html\" rel=\"next\""))
        XCTAssertTrue(page2.contains("href=\"index.html\" rel=\"prev\""))
        XCTAssertEqual(page1.components(separatedBy: "class=\"thumb\"").count - 1
                       + page2.components(separatedBy: "class=\"thumb\"").count - 1, 2, "the two photos link originals")
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)

        try site.writeFlickrFeed(at: "feed.js", base: base)
        let second = try Photomirror().run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("page-2.html").path),
                       "a page past the feed's new end is removed")
        let shrunk = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(shrunk.contains("page-2.html"))
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
    }
}
