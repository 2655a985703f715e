import Foundation
import XCTest

/// Whatever happens to the process, the cache stays one that `verify` accepts, and the next
/// sync completes every item.
final class CrashSafetyTests: XCTestCase {
    /// SIGKILL at several random instants of a slow sync; verify after each; then finish.
    func testKilledSyncLeavesAVerifiableCacheAndTheNextSyncCompletes() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 10))
        // Each request waits 100 ms, so a kill lands mid-transfer, mid-decode or mid-write.
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.1"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        let photomirror = Photomirror()
        var generator = SystemRandomNumberGenerator()
        for round in 1...5 {
            let delay = Double.random(in: 0.05...1.2, using: &generator)
            try photomirror.kill(["sync", "--jobs", "2", "--cache", cache.path, server.url("feed.js")], after: delay,
                                 output: folder.appendingPathComponent("round-\(round).log"))
            let verify = try photomirror.run(["verify", "--cache", cache.path])
            XCTAssertEqual(verify.status, 0, "round \(round), killed after \(delay) s:\n\(verify.stderr)")
        }
        let final = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertTrue(final.stdout.contains("\"ok\" : 10"), final.stdout)
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
    }

    /// SIGINT and SIGTERM stop a sync cleanly: exit 130/143 and a line saying how far it got.
    func testInterruptedSyncStopsCleanly() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 8))
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.3"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        for (signal, expected) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let log = folder.appendingPathComponent("signal-\(signal).log")
            server.clearLog()
            let process = try Photomirror().start(["sync", "--jobs", "1", "--cache", cache.path, server.url("feed.js")],
                                                  output: log)
            // Signalled once this sync was served an image, not after a fixed time: on a loaded
            // machine the feed may still be on its way after a second, and a sync stopped then has
            // no images to count. The image must follow this sync's feed request: the last round's
            // transfer may still be answered after its process ended.
            func servedAnImage() -> Bool {
                let requests = server.requests
                guard let feed = requests.firstIndex(where: { $0.contains("/feed.js") }) else { return false }
                return requests[feed...].contains { $0.contains("/photos/") }
            }
            let deadline = Date().addingTimeInterval(60)
            while !servedAnImage(), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let output = try String(contentsOf: log, encoding: .utf8)
            XCTAssertEqual(process.terminationStatus, expected, output)
            XCTAssertTrue(output.contains("sync interrupted after"), output)
            XCTAssertTrue(output.contains(" of 8 images;"), "the feed's images, counted without a progress line: \(output)")
            XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
        }
        let final = try Photomirror().run(["sync", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(final.status, 0, final.stderr)
    }

    /// A sync interrupted before its one feed came says so, not "after 0 of 0 images".
    func testASyncInterruptedWhileItsFeedIsOnItsWaySaysSo() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "30"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        let log = folder.appendingPathComponent("sync.log")
        let process = try Photomirror().start(["sync", "--cache", cache.path, server.url("feed.js")], output: log)
        // The index is made before the feed is asked for, which the server answers after 30 s.
        let index = cache.appendingPathComponent("index.sqlite").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: index), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, output)
        XCTAssertTrue(output.contains("sync interrupted while reading its feeds, before any image;"), output)
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
    }

    /// A cache on a full disk: the sync ends with a message naming the path and the cause,
    /// exit 4, no partial file under a final name, and an index `verify` accepts.
    func testFullDiskEndsTheSyncCleanly() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let site = try FeedSite(photos: try Paths.photos(count: 6))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let mountPoint = try Paths.temporaryFolder().appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mount = try Photomirror.shell("mount", "-t", "tmpfs", "-o", "size=1600k", "tmpfs", mountPoint.path)
        guard mount == 0 else { throw XCTSkip("cannot mount a tmpfs here (mount exited \(mount))") }
        defer { _ = try? Photomirror.shell("umount", "-l", mountPoint.path) }
        let cache = mountPoint.appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--jobs", "1", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.contains("No space left on device") || result.stderr.contains("disk is full"), result.stderr)
        XCTAssertTrue(result.stderr.contains(mountPoint.path), "the message names the path: \(result.stderr)")
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        for line in verify.stderr.split(separator: "\n") where line.hasPrefix("garbage:") {
            XCTAssertTrue(line.contains(".tmp-") || line.contains("orphan"), String(line))
        }
    }
}

extension Photomirror {
    /// Runs a system command, returning its exit status.
    static func shell(_ command: String, _ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
