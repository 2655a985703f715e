import Foundation
import XCTest

/// A failed image's reason is what happened to that image; a pause its host asked for in another
/// image's answer, which kept it from being retried, comes after.
final class FailureReasonTests: XCTestCase {
    /// B is answered 500 once A has been answered 429 with `Retry-After: 120` (longer than a sync
    /// waits): B's retry is refused by the host's pause, and B still fails with its own 500.
    func testA500WhoseRetryAHostPauseRefusedIsReportedAsA500() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let events = try Paths.temporaryFolder().appendingPathComponent("events")
        let server = try FixtureServer(root: site.root, arguments: ["--events", events.path])
        defer { server.stop() }
        let photo = site.photoNames[0]
        let items = [FeedSite.Item(title: "b", media: server.url("fault/status-after/k/500")),
                     FeedSite.Item(title: "a", media: server.url("fault/busy/k/1/120/photos/\(photo)"))]
        try site.writeFlickrFeed(at: "feed.json", items: items)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--jobs", "2", "--per-host", "2",
                                          server.url("feed.json")])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        server.stop()
        let seen = ServerEvents(file: events)
        XCTAssertEqual(seen.requests(under: "/fault/status-after/").map(\.status), [500], "B was asked once, and answered 500")
        let failures = sync.stderr.split(separator: "\n").filter { $0.hasPrefix("failed: ") }
        let b = try XCTUnwrap(failures.first { $0.contains("status-after") }, sync.stderr)
        let pause = "http://127.0.0.1:\(server.port) asked for no requests for 120 s (Retry-After)"
        XCTAssertTrue(b.contains("HTTP 500 Internal Server Error; not retried: \(pause)"), String(b))
        let a = try XCTUnwrap(failures.first { $0.contains("/busy/") }, sync.stderr)
        XCTAssertTrue(a.contains("HTTP 429 Too Many Requests; not retried: \(pause)"), String(a))
    }
}
