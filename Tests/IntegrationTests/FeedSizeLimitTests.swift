import Foundation
import XCTest

/// `--max-feed-bytes`: real APIs answer pages of tens of MB, so the default takes them; a
/// document over the limit fails naming its URL and the limit (issue 16).
final class FeedSizeLimitTests: XCTestCase {
    func testALargeFeedIsReadByDefaultAndRefusedOverTheLimit() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        // 24 MB: over the old fixed 20 MB limit, within the default 64 MB.
        let items = "<item><title>t</title><guid>g</guid><enclosure url=\"\(server.url("photos/\(site.photoNames[0])"))\" type=\"image/jpeg\"/></item>"
        let padding = String(repeating: "<!-- \(String(repeating: "x", count: 1000)) -->\n", count: 24_000)
        let rss = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>\(padding)\(items)</channel></rss>"
        try Data(rss.utf8).write(to: site.root.appendingPathComponent("big.xml"))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache").path
        let read = try Photomirror().run(["sync", "--cache", cache, server.url("big.xml")])
        XCTAssertEqual(read.status, 0, read.stderr)
        // A fresh cache: the first one would ask with validators and get a 304 without a body.
        let other = try Paths.temporaryFolder().appendingPathComponent("cache").path
        let refused = try Photomirror().run(["sync", "--cache", other, "--max-feed-bytes", "10MB", server.url("big.xml")])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("big.xml") && refused.stderr.contains("10000000"), refused.stderr)
        XCTAssertEqual(try Photomirror().run(["sync", "--cache", cache, "--max-feed-bytes", "lots", server.url("big.xml")]).status, 2)
    }
}
