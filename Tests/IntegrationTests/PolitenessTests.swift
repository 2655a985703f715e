import Foundation
import XCTest

/// `--per-host` and host pauses, measured where they matter: at the servers. A fixture server
/// with `--events` records every connection and request with its time.
final class PolitenessTests: XCTestCase {
    /// A site of `count` copies of one small photo under distinct names, and its feed.
    private func site(images count: Int, prefix: String = "") throws -> (FeedSite, [String]) {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let photo = site.root.appendingPathComponent("photos/\(site.photoNames[0])")
        let names = (0..<count).map { "\(prefix)image-\($0).jpg" }
        for name in names {
            try FileManager.default.copyItem(at: photo, to: site.root.appendingPathComponent("photos/\(name)"))
        }
        return (site, names)
    }

    private func slowServer(_ site: FeedSite, events: URL) throws -> FixtureServer {
        try FixtureServer(root: site.root, arguments: ["--delay", "0.2", "--events", events.path])
    }

    func testPerHostCapsTheConnectionsAndRequestsOpenToOneHost() throws {
        let (site, names) = try site(images: 20)
        for (perHost, cache) in [(2, "two"), (8, "eight")] {
            let events = try Paths.temporaryFolder().appendingPathComponent("events")
            let server = try slowServer(site, events: events)
            defer { server.stop() }
            try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)", names: names)
            let folder = try Paths.temporaryFolder().appendingPathComponent(cache)
            let sync = try Photomirror().run(["sync", "--cache", folder.path, "--quiet", "--jobs", "16",
                                              "--per-host", String(perHost), server.url("feed.js")])
            XCTAssertEqual(sync.status, 0, sync.stderr)
            server.stop()
            let seen = ServerEvents(file: events)
            XCTAssertEqual(seen.requests(under: "/photos/").count, 20)
            if perHost == 2 {
                XCTAssertEqual(seen.maxConnections, 2, "at most 2 connections open at once, and 2 used")
                XCTAssertEqual(seen.maxInFlight, 2, "at most 2 requests in flight at once, and 2 used")
            } else {
                // The control: the same sync with a larger share opens more, so the cap above is the flag's doing.
                XCTAssertGreaterThan(seen.maxConnections, 2)
                XCTAssertGreaterThan(seen.maxInFlight, 2)
                XCTAssertLessThanOrEqual(seen.maxConnections, 8)
            }
        }
    }

    /// Host A answers its first two image requests with 429 and `Retry-After: 2`. Its images are
    /// listed first, more of them than the sync's window holds: B's images must still all be
    /// fetched during A's pause, and A must be asked nothing for 2 s after each refusal. (The
    /// two refusals may come apart, a pause after the first: the first images start while the
    /// feed is staged, and on a loaded machine the second request can leave after the first
    /// answer. A request already sent when a refusal was answered is not asked during it.)
    func testRetryAfterPausesOnlyThatHost() throws {
        let (siteA, namesA) = try site(images: 12, prefix: "a-")
        let (siteB, namesB) = try site(images: 4, prefix: "b-")
        let eventsA = try Paths.temporaryFolder().appendingPathComponent("events-a")
        let eventsB = try Paths.temporaryFolder().appendingPathComponent("events-b")
        let serverA = try FixtureServer(root: siteA.root, arguments: ["--events", eventsA.path])
        let serverB = try FixtureServer(root: siteB.root, arguments: ["--events", eventsB.path])
        defer {
            serverA.stop()
            serverB.stop()
        }
        let items = namesA.map { FeedSite.Item(title: $0, media: serverA.url("fault/busy/a/2/2/photos/\($0)")) }
            + namesB.map { FeedSite.Item(title: $0, media: serverB.url("photos/\($0)")) }
        try siteB.writeFlickrFeed(at: "feed.json", items: items)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--quiet", "--jobs", "4", "--per-host", "2",
                                          serverB.url("feed.json")])
        XCTAssertEqual(sync.status, 0, "A's items succeed after the pause: \(sync.stderr)")
        serverA.stop()
        serverB.stop()

        let a = ServerEvents(file: eventsA).requests(under: "/fault/busy/")
        let b = ServerEvents(file: eventsB).requests(under: "/photos/")
        let refused = a.filter { $0.status == 429 }
        XCTAssertEqual(refused.count, 2, "\(a)")
        XCTAssertEqual(a.count, 14, "12 images, two of them asked twice")
        XCTAssertEqual(b.count, 4)
        let pauses = refused.compactMap(\.ended)
        XCTAssertEqual(pauses.count, 2)
        let afterPause = a.filter { $0.status == 200 }
        XCTAssertEqual(afterPause.count, 12)
        // A pause starts when the client reads the 429, after the server logged it; a request
        // already sent on A's other connection (`--per-host 2`) may reach the server after that.
        let firstPause = try XCTUnwrap(pauses.min())
        for request in afterPause {
            XCTAssertGreaterThanOrEqual(request.began - firstPause, 1.9, "A asked during its first pause: \(request.path)")
        }
        for pauseBegan in pauses {
            let during = a.filter { $0.began >= pauseBegan && $0.began < pauseBegan + 1.9 }
            XCTAssertLessThanOrEqual(during.count, 1, "A asked during its pause: \(during.map(\.path))")
        }
        let firstAfterPause = try XCTUnwrap(afterPause.map(\.began).min())
        for request in b {
            let ended = try XCTUnwrap(request.ended)
            XCTAssertLessThan(ended, firstAfterPause, "B's \(request.path) waited for A's pause")
        }
    }

    /// A host that asks for longer than a sync waits is let be: its images fail at once, each
    /// naming the host and the delay, and it gets no request after the ones already in flight.
    func testAHostAskingForTooLongAPauseIsNotAskedAgain() throws {
        let (site, names) = try site(images: 8)
        let events = try Paths.temporaryFolder().appendingPathComponent("events")
        let server = try FixtureServer(root: site.root, arguments: ["--events", events.path])
        defer { server.stop() }
        let items = names.map { FeedSite.Item(title: $0, media: server.url("fault/busy/long/100/3600/photos/\($0)")) }
        try site.writeFlickrFeed(at: "feed.json", items: items)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--per-host", "2", server.url("feed.json")])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        let refusal = "127.0.0.1:\(server.port) asked for no requests for 3600 s (Retry-After), longer than the 30 s a sync waits"
        let failures = sync.stderr.split(separator: "\n").filter { $0.hasPrefix("failed: ") }
        XCTAssertEqual(failures.count, 8, sync.stderr)
        XCTAssertTrue(failures.allSatisfy { $0.contains(refusal) }, sync.stderr)
        server.stop()
        XCTAssertLessThanOrEqual(ServerEvents(file: events).requests(under: "/fault/").count, 2)
    }

    /// With `--jobs 1` the window still holds two items, and the second is let go by its host
    /// before the first is answered; it waits for the one download place. The first's answer
    /// refuses the host: the second must not be sent after it.
    func testNoRequestFollowsALongRetryAfterWithOneJob() throws {
        let (site, names) = try site(images: 4)
        let events = try Paths.temporaryFolder().appendingPathComponent("events")
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.3", "--events", events.path])
        defer { server.stop() }
        let items = names.map { FeedSite.Item(title: $0, media: server.url("fault/busy/once/1/1000/photos/\($0)")) }
        try site.writeFlickrFeed(at: "feed.json", items: items)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--jobs", "1", server.url("feed.json")])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("asked for no requests for 1000 s (Retry-After)"), sync.stderr)
        server.stop()
        XCTAssertEqual(ServerEvents(file: events).requests(under: "/fault/").count, 1,
                       "no request after the host asked for 1000 s")
    }

    /// `--rate 4`: a burst of four requests, then one every quarter second, so the seventh comes
    /// at least 0.75 s after the first. Server times, with room for the first connection's setup;
    /// a lower bound only, which a slow machine can only widen (without the rate: ~0.05 s).
    func testRateSpacesTheRequestsToAHost() throws {
        let (site, names) = try site(images: 6)
        let events = try Paths.temporaryFolder().appendingPathComponent("events")
        let server = try FixtureServer(root: site.root, arguments: ["--events", events.path])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)", names: names)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let sync = try Photomirror().run(["sync", "--cache", cache.path, "--quiet", "--rate", "4", server.url("feed.js")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        server.stop()
        let begun = ServerEvents(file: events).requests.map(\.began).sorted()
        XCTAssertEqual(begun.count, 7, "the feed and six images")
        XCTAssertGreaterThanOrEqual(begun[6] - begun[0], 0.6, "\(begun.map { $0 - begun[0] })")
    }

    func testBadPerHostAndRateValuesAreUsageErrors() throws {
        for arguments in [["--per-host", "0"], ["--per-host", "x"], ["--rate", "0"], ["--rate", "-1"], ["--rate", "fast"],
                          ["--rate", "inf"]] {
            let result = try Photomirror().run(["sync"] + arguments + ["file:///nonexistent"])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(arguments[0]), result.stderr)
        }
    }
}
