import Foundation
import XCTest

/// Writers and readers on one cache at once, in random interleavings, with SIGKILLs sprinkled
/// in: sync (two feeds), prune, verify --repair, stats and serve. After every round the cache
/// verifies (garbage allowed, no damage) and no manifest names a missing file (issue 15).
final class InterleavingTests: XCTestCase {
    static let rounds = 20

    func testRandomInterleavingsOfWritersReadersAndKillsLeaveAVerifiableCache() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 8))
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.02"])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "a.js", base: base, names: Array(site.photoNames.prefix(5)))
        try site.writeFlickrFeed(at: "b.js", base: base, names: Array(site.photoNames.suffix(5)))
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        let photomirror = Photomirror()
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache.path, server.url("a.js")]).status, 0)
        let serve = try ServeProcess(cache: cache)
        defer { _ = serve.stop() }

        var generator = SystemRandomNumberGenerator()
        let commands: [[String]] = [
            ["sync", "--wait", "20", "--revalidate", server.url("a.js")],
            ["sync", "--wait", "20", "--size", "40x40", "--size", "64x64", server.url("b.js")],
            ["sync", "--wait", "20", server.url("a.js"), server.url("b.js")],
            ["prune", "--wait", "20", "--max", "900KB"],
            ["prune", "--wait", "20", "--max-age", "1s"],
            ["verify", "--repair", "--wait", "20"],
            ["stats"],
            ["verify"],
        ]
        for round in 1...Self.rounds {
            let chosen = (0..<Int.random(in: 2...4, using: &generator)).map { _ in commands.randomElement(using: &generator)! }
            let victim = Int.random(in: 0..<chosen.count + 1, using: &generator)  // == count: nobody is killed
            var running: [(Process, [String])] = []
            for (index, command) in chosen.enumerated() {
                let log = folder.appendingPathComponent("round-\(round)-\(index).log")
                running.append((try photomirror.start(command + ["--cache", cache.path], output: log), command))
                Thread.sleep(forTimeInterval: Double.random(in: 0...0.05, using: &generator))
            }
            // A reader meanwhile: the gallery and a thumbnail through serve.
            _ = try? RawHTTP.request(port: serve.port, "GET", "/")
            if victim < running.count {
                Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.4, using: &generator))
                kill(running[victim].0.processIdentifier, SIGKILL)
            }
            for (process, command) in running {
                process.waitUntilExit()
                let killed = process.terminationReason == .uncaughtSignal
                // Exit 1 is a prune that cannot fit, or images that failed while another writer
                // evicted them under it; neither is a broken cache. 4 would be a lock timeout.
                XCTAssertTrue(killed || [0, 1].contains(process.terminationStatus),
                              "round \(round): \(command.joined(separator: " ")) exited \(process.terminationStatus)")
            }
            let verify = try photomirror.run(["verify", "--cache", cache.path])
            XCTAssertEqual(verify.status, 0, "round \(round) (\(chosen.map { $0[0] }), killed #\(victim)):\n\(verify.stderr)")
            XCTAssertTrue(verify.stderr.contains(" 0 damaged"), verify.stderr)
        }
        let final = try photomirror.run(["sync", "--cache", cache.path, server.url("a.js"), server.url("b.js")])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache.path]).status, 0)
    }
}
