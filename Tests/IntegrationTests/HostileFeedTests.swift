import Foundation
import XCTest

/// A feed of good items and every fault a stranger's server or feed can throw at a mirror:
/// each good or recoverable item succeeds, each bad one fails alone with a specific reason,
/// nothing from outside the feed's images gets in, and the gallery carries no feed markup.
final class HostileFeedTests: XCTestCase {
    func testEveryFaultFailsAloneWithItsReason() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let names = site.photoNames
        func local(_ path: String) -> String { server.url(path) }
        let good: [FeedSite.Item] = [
            .init(title: "good <script>alert(1)</script>", media: local("photos/\(names[0])"),
                  link: "javascript:alert(2)", description: "<img src=x onerror=alert(3)><script>alert(4)</script>"),
            .init(title: "good \" onerror=\"alert(5)", media: local("photos/\(names[1])")),
            .init(title: "recovers after 503 twice", media: local("fault/flaky/a/2/photos/\(names[2])")),
            .init(title: "recovers after 429 Retry-After", media: local("fault/ratelimit/b/photos/\(names[3])")),
            .init(title: "one redirect", media: local("fault/redirect/photos/\(names[0])")),
        ]
        let bad: [(FeedSite.Item, String)] = [
            (.init(title: "404", media: local("fault/status/404")), "HTTP 404"),
            (.init(title: "500", media: local("fault/status/500")), "HTTP 500"),
            (.init(title: "stall", media: local("fault/stall")), "timed out"),
            (.init(title: "truncated", media: local("fault/truncated/photos/\(names[1])")), "transfer"),
            (.init(title: "redirect loop", media: local("fault/redirect-loop/start")), "redirects"),
            (.init(title: "redirect to file", media: local("fault/redirect-file")), "unsupported URL scheme"),
            (.init(title: "4 GB", media: local("fault/huge")), "larger than"),
            (.init(title: "html", media: local("fault/html")), "HTML page"),
            (.init(title: "png bomb", media: local("fault/png-bomb")), "limit"),
            (.init(title: "local file", media: "file:///etc/passwd"), "unsupported URL scheme \"file\""),
            (.init(title: "ftp", media: "ftp://127.0.0.1/x.jpg"), "unsupported URL scheme \"ftp\""),
        ]
        try site.writeFlickrFeed(at: "feed.json", items: good + bad.map(\.0))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let started = Date()
        let result = try Photomirror().run(["sync", "--cache", cache.path, "--timeout", "2", "--json", server.url("feed.json")])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 1, result.stderr)
        // Bounded by the timeouts given: the stall costs 3 attempts of 2 s plus backoff.
        XCTAssertLessThan(elapsed, 30, "the sync must end within its timeouts")

        let manifest = try CacheInspection.manifestItems(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: result.stdout))
        XCTAssertEqual(manifest.count, good.count + bad.count)
        for item in good {
            let entry = manifest.first { $0["title"] as? String == item.title }
            XCTAssertEqual(entry?["status"] as? String, "ok", "\(item.title): \(entry?["error"] ?? "")")
        }
        for (item, reason) in bad {
            let entry = manifest.first { $0["title"] as? String == item.title }
            XCTAssertEqual(entry?["status"] as? String, "failed", item.title)
            let error = entry?["error"] as? String ?? ""
            XCTAssertTrue(error.contains(reason), "\(item.title): \"\(error)\" should mention \"\(reason)\"")
            XCTAssertTrue(result.stderr.contains(item.media), "stderr names \(item.media)")
        }
        XCTAssertFalse(CacheInspection.cache(cache, contains: "root:x:0:0"), "nothing of /etc/passwd in the cache")

        let gallery = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        for markup in ["<script", "javascript:", "<img src=x", "\" onerror=\""] {
            XCTAssertFalse(gallery.contains(markup), "gallery carries feed markup \(markup)")
        }
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
    }

    /// A server that sends more than its Content-Length leaves the excess on the kept-alive
    /// connection, in front of the next answer there: that image was never at fault, so it is
    /// retried on a new connection, and no message blames a URL scheme.
    func testExcessBodyOnAConnectionFailsNoOtherImage() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let names = site.photoNames
        let items = [FeedSite.Item(title: "long", media: server.url("fault/long-cl/photos/\(names[0])"))]
            + names.dropFirst().map { FeedSite.Item(title: $0, media: server.url("photos/\($0)")) }
        try site.writeFlickrFeed(at: "feed.json", items: items)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--cache", cache.path, "--jobs", "1", "--json", server.url("feed.json")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("scheme"), result.stderr)
        let manifest = try CacheInspection.manifestItems(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: result.stdout))
        XCTAssertEqual(manifest.filter { $0["status"] as? String == "ok" }.count, items.count, "\(manifest)")
    }

    /// A local feed that is missing or not a feed: the message names the path and the system's
    /// reason, and never quotes the file's bytes (`file:///proc/self/environ` holds secrets).
    func testLocalFeedErrorsNameThePathAndQuoteNoBytes() throws {
        let folder = try Paths.temporaryFolder()
        let secrets = folder.appendingPathComponent("environ")
        try Data("AWS_SECRET_ACCESS_KEY=TOPSECRET-0123456789\0HOME=/root\0".utf8).write(to: secrets)
        let missing = folder.appendingPathComponent("no-such-feed.xml").path
        let cache = folder.appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--cache", cache.path, "file://\(missing)", secrets.absoluteString])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(missing): cannot open the feed (No such file or directory)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("unrecognized feed"), result.stderr)
        XCTAssertFalse(result.stderr.contains("TOPSECRET") || result.stdout.contains("TOPSECRET"), result.stderr)
        XCTAssertFalse(CacheInspection.cache(cache, contains: "TOPSECRET"))
    }
}

