import Foundation
import XCTest

/// `sync --json` prints a document whatever happens: a sync that fails outright (exit 4) prints
/// the success document's shape with an `error` object, so a script reading stdout always has
/// JSON to read.
final class SyncJSONFailureTests: XCTestCase {
    func testASyncThatCannotTakeTheLockPrintsTheErrorAsJSON() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        XCTAssertEqual(try feeds.sync(cache, [feeds.newer]).status, 0)
        let holder = try LockHolder(cache.appendingPathComponent("lock"))
        defer { holder.release() }

        let result = try feeds.photomirror.run(["sync", "--json", "--wait", "0.2", "--cache", cache.path, feeds.newer])
        XCTAssertEqual(result.status, 4, result.stderr)
        let document = try CacheDisk.json(result.stdout)
        let error = try XCTUnwrap(document["error"] as? [String: Any], result.stdout)
        XCTAssertTrue((error["message"] as? String ?? "").contains("another photomirror process is writing this cache"),
                      result.stdout)
        XCTAssertEqual(error["kind"] as? String, "cache")
        XCTAssertEqual(error["exit_code"] as? Int, 4)
        XCTAssertEqual((document["feeds"] as? [Any])?.count, 0, "the success document's keys, empty")
        XCTAssertEqual(document["bytes_downloaded"] as? Int, 0)
        XCTAssertTrue(result.stderr.contains("another photomirror process"), "stderr still says it: \(result.stderr)")
    }

    func testASyncThatCannotOpenTheCachePrintsTheErrorAsJSON() throws {
        let folder = try Paths.temporaryFolder()
        // A file where the cache folder should be.
        let notAFolder = folder.appendingPathComponent("cache")
        try Data("x".utf8).write(to: notAFolder)
        let result = try Photomirror().run(["sync", "--json", "--cache", notAFolder.path, "http://127.0.0.1:9/feed.js"])
        XCTAssertEqual(result.status, 4, result.stderr)
        let error = try XCTUnwrap(CacheDisk.json(result.stdout)["error"] as? [String: Any], result.stdout)
        XCTAssertTrue((error["message"] as? String ?? "").contains(notAFolder.path), result.stdout)
    }

    func testASuccessfulSyncPrintsNoErrorObject() throws {
        let feeds = try TwoFeeds.make()
        let cache = feeds.folder.appendingPathComponent("cache")
        let result = try feeds.photomirror.run(["sync", "--json", "--cache", cache.path, feeds.newer])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try CacheDisk.json(result.stdout)
        XCTAssertTrue(document["error"] is NSNull, "every key present, null where it has no value: \(result.stdout)")
        XCTAssertEqual((document["feeds"] as? [Any])?.count, 1)
        XCTAssertNotNil(document["gallery"] as? String)
    }
}
