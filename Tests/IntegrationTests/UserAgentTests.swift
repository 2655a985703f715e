import Foundation
import XCTest

/// `--user-agent`: an operator's own User-Agent on every request of a sync (the feed and each
/// image) and of `feed`; text that could break the header is a usage error.
final class UserAgentTests: XCTestCase {
    func testEveryRequestCarriesTheOperatorsUserAgent() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let agent = "photomirror/0.1 (+mailto:ops@example.org)"

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--user-agent", agent, server.url("feed.js")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let requests = server.userAgents
        XCTAssertEqual(requests.count, 3, "the feed and two photos: \(requests)")
        XCTAssertTrue(requests.allSatisfy { $0.hasSuffix(" " + agent) }, "\(requests)")

        server.clearLog()
        let plain = try Photomirror().run(["feed", server.url("feed.js")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(server.userAgents, ["GET /feed.js photomirror/0.1 (+https://github.com/photomirror)"])
    }

    func testAUserAgentThatCouldBreakTheHeaderIsRefused() throws {
        for bad in ["", "a\r\nX-Injected: 1", String(repeating: "a", count: 513)] {
            let result = try Photomirror().run(["sync", "--user-agent", bad, "file:///nonexistent"])
            XCTAssertEqual(result.status, 2, "\(bad.debugDescription): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--user-agent"), result.stderr)
        }
    }
}
