import Foundation
import XCTest

/// `photomirror serve` under a slowloris: one client's half-open connections must not starve
/// another client. On loopback the attacker comes from 127.0.0.1 and the victim from
/// 127.0.0.2, so per-client limits can tell them apart.
final class ServeUnderAbuseTests: XCTestCase {
    private let attacker = "127.0.0.1", victim = "127.0.0.2"
    /// serve's default --max-per-client.
    private let perClient = 64
    /// Below the attack, so that without a per-client limit the attacker can fill it; the
    /// same in the test and its control, so the per-client limit is the only difference.
    private let total = "1000"

    func testAThousandHalfOpenConnectionsFromOneClientLeaveAnotherClientServed() throws {
        let serve = try ServeProcess(cache: try Self.site(), extraArguments: ["--max-connections", total])
        defer { serve.stop() }
        // A third client reads an original at a trickle all along: slow, but never idle.
        let reader = try SlowReader(port: serve.port, path: "/" + Self.original, from: "127.0.0.3", bytesPerSecond: 32_000)
        let slowloris = try HalfOpenConnections(count: 1000, port: serve.port, from: attacker)

        let answer = try RawHTTP.request(port: serve.port, "GET", "/", from: victim)
        XCTAssertEqual(answer.status, 200)

        // Those over the limit are closed on arrival; the ones held are still open after the
        // answer, so it was the limit that made room for the other client, not the idle timeout.
        let refused = slowloris.count - perClient
        let closed = slowloris.waitForClosed(upTo: 5, meanwhile: reader.readDue) { $0 >= refused }
        XCTAssertEqual(closed, refused, "connections over --max-per-client \(perClient) are closed at once, the rest held")

        // The idle timeout gives the held slots back: half a request is not kept forever.
        XCTAssertEqual(slowloris.waitForClosed(upTo: 20, meanwhile: reader.readDue) { $0 == slowloris.count },
                       slowloris.count, "half-open connections are closed once idle")
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/", from: attacker).status, 200,
                       "the attacker's address is served again once its connections are gone")

        // Past the idle timeout with a margin, the trickling reader still has its connection.
        while reader.secondsReading < 12 {
            reader.readDue()
            usleep(20_000)
        }
        XCTAssertTrue(reader.serverStillHoldsIt, "a reader that keeps reading is not idle (\(reader.received) bytes read)")
    }

    /// Without a per-client limit the same attack fills the connections (as it filled
    /// libmicrohttpd's default of 1020 before serve had limits), but the oldest half-open ones
    /// are closed to let the victim in.
    func testWithoutAPerClientLimitTheOldestHalfOpenConnectionsMakeRoomForAnotherClient() throws {
        let serve = try ServeProcess(cache: try Self.site(), extraArguments: ["--max-per-client", "0",
                                                                              "--max-connections", total])
        defer { serve.stop() }
        let slowloris = try HalfOpenConnections(count: 1000, port: serve.port, from: attacker)

        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/", from: victim, timeout: 30).status, 200)
        XCTAssertGreaterThan(slowloris.closedByServer(), 0, "attacker connections were closed to make room")
    }

    func testTheTotalFitsTheOpenFileLimitAndLeavesRoomForOthers() throws {
        let site = try Self.site()
        let serve = try ServeProcess(cache: site, launcher: ["prlimit", "--nofile=256:256", "--"])
        defer { serve.stop() }
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/").status, 200)
        XCTAssertTrue(serve.server.stderr.contains("serving at most 96 connections at once: the open-file limit (ulimit -n) is 256"),
                      serve.server.stderr)

        let sameAsTotal = try Photomirror().run(["serve", "--cache", site.path, "--port", "0",
                                                 "--max-per-client", "100", "--max-connections", "100"])
        XCTAssertEqual(sameAsTotal.status, 2)
        XCTAssertTrue(sameAsTotal.stderr.contains("--max-per-client must be below --max-connections"), sameAsTotal.stderr)
    }

    /// A folder with a page and a big original: enough to serve, and nothing to sync first.
    private static func site() throws -> URL {
        let folder = try Paths.temporaryFolder()
        try Data("<!doctype html><title>gallery</title>\n".utf8).write(to: folder.appendingPathComponent("index.html"))
        let original = folder.appendingPathComponent(Self.original)
        try FileManager.default.createDirectory(at: original.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0xA5, count: 4_000_000).write(to: original)
        return folder
    }

    /// Served only where photomirror puts an original: named by a hash, in its fan-out folder.
    private static let original = "originals/a5/" + String(repeating: "a5", count: 32) + ".jpg"
}
