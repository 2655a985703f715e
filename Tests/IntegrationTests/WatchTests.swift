import Foundation
import XCTest

/// `photomirror watch` against a real server: rounds on time, a feed's `<ttl>` honoured, the lock
/// free between rounds, SIGTERM ending it with 143 and a cache that verifies, 410 Gone (issue 13).
final class WatchTests: XCTestCase {
    private func writeRSS(_ site: FeedSite, at path: String, photo: String, ttlMinutes: Int? = nil, base: String) throws {
        let ttl = ttlMinutes.map { "<ttl>\($0)</ttl>" } ?? ""
        let rss = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>\(path)</title><link>\(base)/</link>\(ttl)
        <item><title>\(photo)</title><guid>\(path)-\(photo)</guid>
        <enclosure url="\(base)/photos/\(photo)" type="image/jpeg" length="1"/></item>
        </channel></rss>
        """
        try Data(rss.utf8).write(to: site.root.appendingPathComponent(path))
    }

    /// Lines of `watch --json` output that are round objects.
    private func rounds(in output: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `condition` holds, looking every 0.1 s, for at most `limit` seconds: whether
    /// it held. The tests wait for rounds and requests, not for a time that a loaded machine's
    /// debug build may overrun.
    private func waitUntil(upTo limit: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return true
    }

    /// Sends SIGTERM and returns how long the process took to exit.
    private func terminate(_ process: Process) -> Double {
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return Date().timeIntervalSince(start)
    }

    func testRoundsEveryTwoSecondsHonourTTLAndStopOnSIGTERM() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try writeRSS(site, at: "often.xml", photo: site.photoNames[0], base: base)
        try writeRSS(site, at: "hourly.xml", photo: site.photoNames[1], ttlMinutes: 60, base: base)
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let output = folder.appendingPathComponent("watch.log")
        let watch = try Photomirror().start(["watch", "--every", "2s", "--json", "--cache", cache,
                                             server.url("often.xml"), server.url("hourly.xml")], output: output)
        XCTAssertTrue(waitUntil { rounds(in: output).count >= 1 }, "no round ended within a minute")
        // Between rounds the writer's lock is free: a prune gets it once the round in progress
        // ends. The wait is for a round slowed by a loaded machine; a watch that kept the lock
        // between rounds would hold it past any wait.
        let prune = try Photomirror().run(["prune", "--cache", cache, "--max", "1GB", "--wait", "10"])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertTrue(waitUntil { rounds(in: output).count >= 3 }, "three rounds within a minute")
        let stopped = terminate(watch)
        let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        XCTAssertEqual(watch.terminationStatus, 143, log)
        // 143 says the watch ended on the signal itself; the bound only catches one that hangs.
        XCTAssertLessThan(stopped, 30, "watch took \(stopped) s to stop on SIGTERM")
        let done = rounds(in: output)
        XCTAssertGreaterThanOrEqual(done.count, 3, log)
        XCTAssertEqual((done.first?["synced"] as? Int), 2, log)
        XCTAssertEqual((done.first?["images_new"] as? Int), 2, log)
        let requests = server.requests
        XCTAssertEqual(requests.filter { $0.hasPrefix("GET /hourly.xml ") }.count, 1, "a 60-minute <ttl> is polled once: \(requests)")
        XCTAssertGreaterThanOrEqual(requests.filter { $0.hasPrefix("GET /often.xml ") }.count, 3, "\(requests)")
        XCTAssertTrue(requests.filter { $0.hasPrefix("GET /often.xml ") }.dropFirst().allSatisfy { $0.hasSuffix(" 304") },
                      "later rounds ask with validators: \(requests)")
        let verify = try Photomirror().run(["verify", "--cache", cache])
        XCTAssertEqual(verify.status, 0, verify.stderr)

        // A restarted watch remembers the ttl: the hourly feed is not due yet.
        server.clearLog()
        let again = try Photomirror().start(["watch", "--every", "1s", "--cache", cache,
                                             server.url("often.xml"), server.url("hourly.xml")], output: output)
        // Two polls of the frequent feed: the first round, which would have asked for the hourly
        // one too, is over.
        XCTAssertTrue(waitUntil { server.requests.filter { $0.contains("/often.xml") }.count >= 2 }, "\(server.requests)")
        _ = terminate(again)
        XCTAssertFalse(server.requests.contains { $0.contains("/hourly.xml") }, "\(server.requests)")
    }

    func testAGoneFeedIsNotPolledAgainUntilASyncByHand() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try writeRSS(site, at: "alive.xml", photo: site.photoNames[0], base: base)
        try writeRSS(site, at: "later.xml", photo: site.photoNames[1], base: base)
        let marker = site.root.appendingPathComponent("gone.marker")
        try Data().write(to: marker)
        let gone = server.url("fault/gone-while/gone.marker/later.xml")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let output = folder.appendingPathComponent("watch.log")
        /// Watches until `done` holds (a minute at most), then stops the watch.
        func watch(until done: () -> Bool) throws -> String {
            let watch = try Photomirror().start(["watch", "--every", "1s", "--json", "--cache", cache,
                                                 server.url("alive.xml"), gone], output: output)
            XCTAssertTrue(waitUntil(done), "\(server.requests)")
            _ = terminate(watch)
            XCTAssertEqual(watch.terminationStatus, 143)
            return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        /// The live feed asked `count` times: the rounds before the last one asked are over, the
        /// gone feed (listed after it) included.
        func alivePolled(_ count: Int) -> () -> Bool {
            { server.requests.filter { $0.contains("alive.xml") }.count >= count }
        }
        let first = try watch(until: alivePolled(3))
        XCTAssertEqual(server.requests.filter { $0.contains("gone-while") }, ["GET /fault/gone-while/gone.marker/later.xml 410"],
                       "a 410 is asked once: \(server.requests)")
        XCTAssertGreaterThanOrEqual(server.requests.filter { $0.contains("alive.xml") }.count, 2)
        XCTAssertEqual(rounds(in: output).first?["gone"] as? Int, 1, first)
        XCTAssertTrue(first.contains("410"), first)

        server.clearLog()
        _ = try watch(until: alivePolled(2))
        XCTAssertFalse(server.requests.contains { $0.contains("gone-while") }, "a restarted watch skips it: \(server.requests)")

        // The feed is back, and a sync by hand says so; watch polls it again.
        try FileManager.default.removeItem(at: marker)
        let byHand = try Photomirror().run(["sync", "--cache", cache, gone])
        XCTAssertEqual(byHand.status, 0, byHand.stderr)
        server.clearLog()
        _ = try watch(until: { server.requests.contains { $0.contains("gone-while") } })
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache]).status, 0)
    }

    func testWatchEndsWithThreeWhenEveryFeedIsGone() throws {
        let site = try FeedSite(photos: [])
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache").path
        let result = try Photomirror().run(["watch", "--every", "1s", "--cache", cache, server.url("fault/status/410")])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("every feed is gone"), result.stderr)
    }
}
