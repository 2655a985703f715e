import Foundation
import XCTest

/// Every sync asks for each feed with its stored validators: an unchanged feed answers 304, is
/// not downloaded or parsed again, and its manifest and pages stay as they are (issue 13).
final class ConditionalFeedTests: XCTestCase {
    func testUnchangedFeedsAnswer304AndAChangedOneIsReread() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "a.js", base: base, names: Array(site.photoNames.prefix(2)))
        try site.writeFlickrFeed(at: "b.js", base: base, names: Array(site.photoNames.suffix(2)))
        let feeds = [server.url("a.js"), server.url("b.js")]
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        let first = try photomirror.run(["sync", "--json", "--cache", cache.path] + feeds)
        XCTAssertEqual(first.status, 0, first.stderr)
        for feed in try CacheInspection.feeds(fromSummary: first.stdout) {
            XCTAssertEqual(feed["unchanged"] as? Bool, false, "a first sync reads the feed")
        }
        let manifests = try CacheInspection.feeds(fromSummary: first.stdout).map {
            cache.appendingPathComponent(try XCTUnwrap($0["manifest"] as? String))
        }
        let files = manifests.flatMap { [$0, $0.deletingLastPathComponent().appendingPathComponent("index.html")] }
        let before = try files.map { try Snapshot($0) }

        server.clearLog()
        let second = try photomirror.run(["sync", "--json", "--cache", cache.path] + feeds)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.requests, ["GET /a.js 304", "GET /b.js 304"], "no feed body and no image again")
        XCTAssertEqual(server.conditionalRequests, ["GET /a.js 304 If-None-Match If-Modified-Since",
                                                    "GET /b.js 304 If-None-Match If-Modified-Since"])
        for feed in try CacheInspection.feeds(fromSummary: second.stdout) {
            XCTAssertEqual(feed["unchanged"] as? Bool, true, "\(feed)")
            XCTAssertEqual(feed["items"] as? Int, 2, "a 304 publishes the stored items")
            XCTAssertEqual(feed["reused"] as? Int, 2)
        }
        XCTAssertEqual(try files.map { try Snapshot($0) }, before, "an unchanged feed's files are not rewritten")

        // b.js gets another body, and so another ETag and Last-Modified.
        try site.writeFlickrFeed(at: "b.js", base: base, names: site.photoNames)
        server.clearLog()
        let third = try photomirror.run(["sync", "--cache", cache.path] + feeds)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(server.requests, ["GET /a.js 304", "GET /b.js 200"], "the other images are cached already")
        let summary = third.stdout + third.stderr
        XCTAssertTrue(summary.contains("unchanged (304), 2 items"), summary)
        XCTAssertTrue(summary.contains(": 4 items, 4 ok"), summary)
        XCTAssertTrue(summary.contains("synced 2 of 2 feeds (1 unchanged): "), summary)
        XCTAssertEqual(try Snapshot(files[0]), before[0])
        XCTAssertNotEqual(try Snapshot(files[2]), before[2], "a changed feed's manifest is written again")
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache.path]).status, 0)
    }

    func testAPagedAPIRevalidatesItsFirstPage() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        func writePage(_ page: Int, title: String) throws {
            let photos = (0..<2).map { offset -> String in
                let number = (page - 1) * 2 + offset
                return """
                {"id": "\(5000 + number)", "title": "\(title) \(number)",
                 "url_m": "http://127.0.0.1:\(server.port)/photos/\(site.photoNames[number])"}
                """
            }
            try Data("""
            {"photos": {"page": \(page), "pages": 2, "perpage": 2, "total": "4", "photo": [\(photos.joined(separator: ","))]}, "stat": "ok"}
            """.utf8).write(to: site.root.appendingPathComponent("rest-page-\(page).json"))
        }
        try writePage(1, title: "first")
        try writePage(2, title: "first")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let feedURL = server.url("services/rest/?method=flickr.photos.search&tags=x&extras=url_m&format=json&nojsoncallback=1")
        let photomirror = Photomirror()
        let first = try photomirror.run(["sync", "--json", "--pages", "2", "--cache", cache.path, feedURL])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try CacheInspection.firstFeed(fromSummary: first.stdout)["items"] as? Int, 4)
        let manifest = cache.appendingPathComponent(try XCTUnwrap(
            try CacheInspection.firstFeed(fromSummary: first.stdout)["manifest"] as? String))
        let before = try Snapshot(manifest)

        server.clearLog()
        let second = try photomirror.run(["sync", "--json", "--pages", "2", "--cache", cache.path, feedURL])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.conditionalRequests.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") },
                       ["304 If-None-Match"], "page 1 only, and its 304 stands for the feed: \(server.conditionalRequests)")
        let unchanged = try CacheInspection.firstFeed(fromSummary: second.stdout)
        XCTAssertEqual(unchanged["unchanged"] as? Bool, true)
        XCTAssertEqual(unchanged["items"] as? Int, 4, "both pages' stored items")
        XCTAssertEqual(try Snapshot(manifest), before)

        try writePage(1, title: "second")
        server.clearLog()
        let third = try photomirror.run(["sync", "--json", "--pages", "2", "--cache", cache.path, feedURL])
        XCTAssertEqual(third.status, 0, third.stderr)
        let pages = server.conditionalRequests
        XCTAssertEqual(pages.count, 2, "a 200 for page 1 is followed as usual: \(pages)")
        XCTAssertTrue(pages[0].hasSuffix(" 200 If-None-Match"), pages[0])
        XCTAssertTrue(pages[1].contains("page=2") && pages[1].hasSuffix(" 200"), "later pages are asked whole: \(pages[1])")
        XCTAssertEqual(try CacheInspection.firstFeed(fromSummary: third.stdout)["unchanged"] as? Bool, false)
        XCTAssertTrue(CacheInspection.cache(cache, contains: "second 0"))
    }
}

/// What tells whether a file was rewritten: its bytes, inode (atomic writes replace it) and mtime.
private struct Snapshot: Equatable {
    let bytes: Data
    let inode: Int?
    let modified: Date?

    init(_ url: URL) throws {
        bytes = try Data(contentsOf: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        inode = attributes[.systemFileNumber] as? Int
        modified = attributes[.modificationDate] as? Date
    }
}
