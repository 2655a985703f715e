import Foundation
import XCTest

/// `photomirror serve` and nginx with the repo's config serve a synced cache by the same rules.
final class ServeTests: XCTestCase {
    func testPhotomirrorServeFollowsTheContractAndStopsCleanly() throws {
        let cache = try SyncedCache(photos: 2, scales: "1")
        try StaticServerContract.plantHazards(in: cache.root)
        let serve = try ServeProcess(cache: cache.root)
        try StaticServerContract(port: serve.port, cache: cache).checkAll()

        // Only GET and HEAD; a folder asked for without its slash is redirected so relative
        // links keep working.
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "POST", "/index.html").status, 405)
        let feedFolder = try cache.firstItemFiles().manifest.replacingOccurrences(of: "/manifest.json", with: "")
        let redirect = try RawHTTP.request(port: serve.port, "GET", "/" + feedFolder)
        XCTAssertEqual(redirect.status, 301)
        XCTAssertEqual(redirect.header("Location"), "/\(feedFolder)/")
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/\(feedFolder)/").status, 200)
        let thumbnail = try cache.firstItemFiles().thumbnail
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/" + thumbnail).header("ETag"),
                       "\"\(URL(fileURLWithPath: thumbnail).deletingPathExtension().lastPathComponent)-40x40\"",
                       "a thumbnail's tag is its original's hash and size")

        XCTAssertEqual(serve.stop(), 0, "SIGTERM stops serve with exit 0")
        XCTAssertTrue(serve.server.stderr.contains("stopped on SIGTERM"), serve.server.stderr)
        XCTAssertThrowsError(try RawHTTP.request(port: serve.port, "GET", "/"), "nothing listens after the stop")
    }

    func testServeRefusesAMissingCacheAndABusyPort() throws {
        let missing = try Photomirror().run(["serve", "--cache", "/nonexistent/cache", "--port", "0"])
        XCTAssertEqual(missing.status, 4)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/cache"), missing.stderr)
        let cache = try Paths.temporaryFolder()
        let first = try ServeProcess(cache: cache)
        defer { first.stop() }
        let busy = try Photomirror().run(["serve", "--cache", cache.path, "--port", String(first.port)])
        XCTAssertEqual(busy.status, 4)
        XCTAssertTrue(busy.stderr.contains("Address already in use"), busy.stderr)
        XCTAssertEqual(try Photomirror().run(["serve", "--bind", "nonsense", "--port", "0", "--cache", cache.path]).status, 4)
    }

    func testNginxWithTheRepoConfigFollowsTheSameContract() throws {
        let cache = try SyncedCache(photos: 2, scales: "1")
        try StaticServerContract.plantHazards(in: cache.root)
        let nginx = try NginxServer(cache: cache.root)
        defer { nginx.stop() }
        try StaticServerContract(port: nginx.port, cache: cache).checkAll()
    }
}
