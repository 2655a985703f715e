import Foundation
import Synchronization
import XCTest

/// cache-layout.md promises that serve's access batch never delays or fails a writer: a cache
/// served under load syncs and prunes as an idle one does.
final class ServeBesideWritersTests: XCTestCase {
    static let rounds = 10
    static let requestsWanted = 5000

    /// GETs of the cache's originals and thumbnails from two clients, counted, until stopped.
    final class Load: Sendable {
        private struct State {
            var stopping = false
            var answered = 0
            var unanswered: [String] = []
        }

        private let state = Mutex(State())
        private let cache: URL
        private let port: Int
        private let done = DispatchGroup()

        init(cache: URL, port: Int, clients: Int = 2) {
            self.cache = cache
            self.port = port
            for _ in 0..<clients {
                done.enter()
                Thread.detachNewThread { [self] in
                    run()
                    done.leave()
                }
            }
        }

        func stop() -> (answered: Int, unanswered: [String]) {
            state.withLock { $0.stopping = true }
            done.wait()
            return state.withLock { ($0.answered, $0.unanswered) }
        }

        private func run() {
            var paths: [String] = []
            var sent = 0
            while !state.withLock({ $0.stopping }) {
                // What the cache holds now: a sync adds files, a prune removes some (a 404 then).
                if sent % 200 == 0 || paths.isEmpty {
                    paths = CacheDisk.files(in: cache, under: "thumbs") + CacheDisk.files(in: cache, under: "originals")
                    if paths.isEmpty {
                        Thread.sleep(forTimeInterval: 0.05)
                        continue
                    }
                }
                let path = paths[sent % paths.count]
                sent += 1
                do {
                    _ = try RawHTTP.request(port: port, "GET", "/" + path)
                    state.withLock { $0.answered += 1 }
                } catch {
                    state.withLock { $0.unanswered.append("\(path): \(error)") }
                }
            }
        }
    }

    /// Each round's feed names its own copies of twelve photos (other bytes), so that every sync
    /// downloads, stores and records images while serve counts the ones it hands out.
    func testSyncsAndPrunesBesideAServeUnderLoadAllSucceed() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 12))
        // Slow images make each sync last: serve commits its batch while the sync is between writes.
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.2"])
        defer { server.stop() }
        for round in 1...Self.rounds {
            var names: [String] = []
            for name in site.photoNames {
                var bytes = try Data(contentsOf: site.root.appendingPathComponent("photos/\(name)"))
                bytes.append(contentsOf: Array("round \(round)".utf8))
                try bytes.write(to: site.root.appendingPathComponent("photos/r\(round)-\(name)"))
                names.append("r\(round)-\(name)")
            }
            try site.writeFlickrFeed(at: "round-\(round).js", base: "http://127.0.0.1:\(server.port)", names: names)
        }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        let first = try photomirror.run(["sync", "--quiet", "--cache", cache.path, server.url("round-1.js")])
        XCTAssertEqual(first.status, 0, first.stderr)

        // Batches ten times a second instead of once in five: many land while a sync is between
        // its statements.
        let serve = try ServeProcess(cache: cache, launcher: ["/usr/bin/env", "PHOTOMIRROR_TEST_ACCESS_INTERVAL=0.1"])
        let load = Load(cache: cache, port: serve.port)
        var failures: [String] = []
        for round in 2...Self.rounds + 1 {
            // The round's feed, downloaded, and the one before, revalidated; at the end the last
            // and the first once more: ten syncs beside serve.
            let feeds = (round <= Self.rounds ? [round, round - 1] : [Self.rounds, 1]).map { server.url("round-\($0).js") }
            let sync = try photomirror.run(["sync", "--quiet", "--cache", cache.path] + feeds)
            if sync.status != 0 { failures.append("sync \(round): exit \(sync.status): \(sync.stderr)") }
            if round % 2 == 1 {  // five prunes
                let prune = try photomirror.run(["prune", "--max", "4MB", "--cache", cache.path])
                if prune.status != 0 { failures.append("prune after sync \(round): exit \(prune.status): \(prune.stderr)") }
            }
        }
        // Stopped once the writers are done: every GET counted was answered beside them.
        let (answered, unanswered) = load.stop()
        XCTAssertEqual(serve.stop(), 0, serve.server.stderr)

        XCTAssertEqual(failures, [])
        XCTAssertGreaterThanOrEqual(answered, Self.requestsWanted)
        XCTAssertEqual(unanswered, [])
        XCTAssertFalse(serve.server.stderr.contains("not count"), "serve counted what it served: \(serve.server.stderr)")
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage, 0 stale"), verify.stderr)
    }
}
