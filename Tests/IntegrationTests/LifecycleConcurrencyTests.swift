import Foundation
import XCTest

/// Writers take the cache's lock; readers never wait for it; a size limit holds after a sync.
final class LifecycleConcurrencyTests: XCTestCase {
    func testASyncAndAPruneStartedTogetherEndWithACacheVerifyAccepts() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let limit = try CacheDisk.allocatedBytes(cache) / 2
        for round in 1...3 {
            let sync = try feeds.photomirror.start(
                ["sync", "--wait", "60", "--cache", cache.path, feeds.newer, feeds.older],
                output: feeds.folder.appendingPathComponent("sync-\(round).log"))
            let prune = try feeds.photomirror.start(
                ["prune", "--wait", "60", "--max", String(limit), "--cache", cache.path],
                output: feeds.folder.appendingPathComponent("prune-\(round).log"))
            sync.waitUntilExit()
            prune.waitUntilExit()
            XCTAssertEqual(sync.terminationStatus, 0, "round \(round)")
            XCTAssertEqual(prune.terminationStatus, 0, "round \(round)")
            let verify = try feeds.photomirror.run(["verify", "--cache", cache.path])
            XCTAssertEqual(verify.status, 0, "round \(round): \(verify.stderr)")
            XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
            XCTAssertEqual(try CacheDisk.brokenReferences(cache), [], "round \(round)")
        }
    }

    func testWritersGiveUpOnAHeldLockWithExitFourWhileReadersGoOn() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        let holder = try LockHolder(cache.appendingPathComponent("lock"))
        defer { holder.release() }
        let writers: [[String]] = [
            ["prune", "--max", "1GB"], ["verify", "--repair"], ["sync", feeds.newer],
        ]
        for writer in writers {
            let result = try feeds.photomirror.run(writer + ["--wait", "0.2", "--cache", cache.path])
            XCTAssertEqual(result.status, 4, "\(writer): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("another photomirror process is writing this cache"), result.stderr)
        }
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0)
        XCTAssertEqual(try feeds.photomirror.run(["stats", "--cache", cache.path]).status, 0)
        XCTAssertEqual(try feeds.photomirror.run(["prune", "--dry-run", "--max", "1MB", "--cache", cache.path]).status, 0)
    }

    func testSyncMaxTrimsToEightyPercentAndTheConfigSetsTheSameLimit() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.older]).status, 0)
        let limit = try CacheDisk.allocatedBytes(cache) * 3 / 4
        let capped = try feeds.photomirror.run(["sync", "--max", String(limit), "--cache", cache.path, feeds.newer])
        XCTAssertEqual(capped.status, 0, capped.stderr)
        XCTAssertTrue(capped.stderr.contains("trimmed to"), capped.stderr)
        XCTAssertLessThanOrEqual(try CacheDisk.allocatedBytes(cache), limit * 8 / 10)
        XCTAssertEqual(try feeds.photomirror.run(["verify", "--cache", cache.path]).status, 0)

        let configured = feeds.folder.appendingPathComponent("configured")
        try FileManager.default.createDirectory(at: configured, withIntermediateDirectories: true)
        try Data("{\"max_size\": \"\(limit)B\"}".utf8).write(to: configured.appendingPathComponent("config.json"))
        XCTAssertEqual(try feeds.sync(configured, [feeds.older]).status, 0)
        XCTAssertLessThanOrEqual(try CacheDisk.allocatedBytes(configured), limit)
        let stats = try CacheDisk.json(try feeds.photomirror.run(["stats", "--json", "--cache", configured.path]).stdout)
        XCTAssertEqual(stats["max_size"] as? Int, limit)

        try Data("{\"max-size\": \"1GB\"}".utf8).write(to: configured.appendingPathComponent("config.json"))
        let typo = try feeds.sync(configured, [feeds.older])
        XCTAssertEqual(typo.status, 4, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("unknown setting \"max-size\""), typo.stderr)
    }

    func testLimitsAreParsedOrRefusedWithExitTwo() throws {
        let folder = try Paths.temporaryFolder()
        let photomirror = Photomirror()
        for (arguments, message) in [
            (["prune", "--max", "500XB"], "unknown unit"), (["prune", "--max", "-1MB"], "negative"),
            (["prune", "--max="], "empty"), (["prune", "--max-age", "7"], "needs a unit"),
            (["prune"], "--max SIZE"), (["sync", "--max", "12parsecs", "file:///x"], "unknown unit"),
        ] {
            let result = try photomirror.run(arguments + ["--cache", folder.path])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let noCache = try photomirror.run(["prune", "--max", "1GB", "--cache", folder.appendingPathComponent("none").path])
        XCTAssertEqual(noCache.status, 4)
        XCTAssertTrue(noCache.stderr.contains("no photomirror cache here"), noCache.stderr)
    }
}

/// Holds a cache's writer lock from another process (util-linux `flock`), as a running sync would.
final class LockHolder {
    private let process = Process()
    private let stdin = Pipe()

    init(_ lock: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // `cat` holds the lock until its stdin closes: in `release`, or when the test process dies.
        process.arguments = ["--exclusive", lock.path, "cat"]
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Held once a non-blocking attempt from here fails.
        while Self.canLock(lock) { Thread.sleep(forTimeInterval: 0.02) }
    }

    func release() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private static func canLock(_ lock: URL) -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        probe.arguments = ["--nonblock", lock.path, "true"]
        try? probe.run()
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }
}
