import Foundation
import XCTest

/// Issue 25, item 3: logs for cron and journald. Stderr here is a file, never a terminal.
final class LogOutputTests: XCTestCase {
    func testASlowSyncIntoALogWritesProgressLinesAndItsElapsedTime() throws {
        let dated = try DatedSite(photos: 2)
        let slow = dated.items(2).map { item -> DatedFeed.Item in
            var item = item
            item.media = item.media.replacingOccurrences(of: "/photos/", with: "/fault/slow/2/photos/")
            return item
        }
        try DatedFeed.rss.write(title: "Slow", items: slow, to: dated.site.root.appendingPathComponent("feed.rss"))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--stats-every", "1s", "--jobs", "1", "--cache", cache.path,
                                            dated.server.url("fault/slow/2/feed.rss")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let progress = result.stderr.split(separator: "\n").filter { $0.hasPrefix("progress: ") }
        XCTAssertFalse(progress.isEmpty, "a progress line every --stats-every: \(result.stderr)")
        XCTAssertTrue(progress.contains { $0.contains("/2 images") && $0.contains(" elapsed") }, result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), "no control characters in a log")
        XCTAssertNotNil(result.stderr.range(of: #"downloaded in \d+\.\d s"#, options: .regularExpression),
                        "the summary gives the elapsed time: \(result.stderr)")
    }

    func testVerboseGivesALinePerRequestAndQuietOnlyErrors() throws {
        let dated = try DatedSite(photos: 2)
        var items = dated.items(2)
        items.append(DatedFeed.Item(id: "missing", date: dated.newest, media: dated.server.url("photos/missing.jpg")))
        try DatedFeed.atom.write(title: "Loud", items: items, to: dated.site.root.appendingPathComponent("feed.atom"))
        let feed = dated.server.url("feed.atom")
        let verbose = try Photomirror().run(["sync", "--verbose", "--cache", try Paths.temporaryFolder().path, feed])
        XCTAssertEqual(verbose.status, 1, verbose.stderr)
        let requests = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("request: ") }
        XCTAssertTrue(requests.contains { $0.hasPrefix("request: \(feed) 200 ") && $0.hasSuffix(" s") }, verbose.stderr)
        XCTAssertTrue(requests.contains { $0.hasPrefix("request: \(dated.server.url("photos/missing.jpg")) 404 ") },
                      verbose.stderr)
        XCTAssertEqual(requests.filter { $0.contains("/photos/") && $0.contains(" 200 ") }.count, 2, verbose.stderr)

        let quiet = try Photomirror().run(["sync", "--quiet", "--stats-every", "1s", "--cache", try Paths.temporaryFolder().path, feed])
        XCTAssertEqual(quiet.status, 1, quiet.stderr)
        XCTAssertTrue(quiet.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("failed:") }, "only errors: \(quiet.stderr)")
        XCTAssertTrue(quiet.stderr.contains("missing.jpg"), quiet.stderr)
    }
}
