import Foundation
import XCTest

/// `photomirror serve` against a slowloris spread over many addresses, each under the
/// per-client limit and together over the total: connections that trickle their headers and
/// are never idle must not keep out a client that sends a whole request.
final class ServeSlowlorisTests: XCTestCase {
    /// Ten attacking addresses; the victim comes from 127.0.0.2.
    private let attackers = (10..<20).map { "127.0.0.\($0)" }

    func testTricklingHeadersFromManyAddressesBeyondTheLimitLeaveACompleteRequestServed() throws {
        let serve = try ServeProcess(cache: try Self.site(), extraArguments: ["--max-connections", "200",
                                                                              "--max-per-client", "40"])
        defer { serve.stop() }
        // 300 connections, 30 from each address: the total is full, the rest wait to be let in.
        // A header line every 2 s keeps each one far from the idle timeout.
        let slowloris = try SlowHeaderConnections(port: serve.port, sources: attackers, perSource: 30, lineEvery: 2)

        // Only a hang is caught: with every connection held the request is never even read.
        let answer = try RawHTTP.request(port: serve.port, "GET", "/", from: "127.0.0.2", timeout: 60)
        XCTAssertEqual(answer.status, 200)
        // The attack notices its closed connections on its next round.
        let deadline = Date().addingTimeInterval(30)
        while slowloris.closedByServer == 0, Date() < deadline { usleep(100_000) }
        XCTAssertGreaterThan(slowloris.closedByServer, 0, "the server made room by closing attackers' connections")
    }

    func testARequestTrickledLineByLineIsClosedAtItsDeadlineThoughNeverIdle() throws {
        let serve = try ServeProcess(cache: try Self.site())
        defer { serve.stop() }
        let slowloris = try SlowHeaderConnections(port: serve.port, sources: ["127.0.0.10"], perSource: 1, lineEvery: 1)

        // A line a second is never 10 s idle: only a deadline from the connection's start ends it.
        let deadline = Date().addingTimeInterval(60)
        while slowloris.closedByServer == 0, Date() < deadline { usleep(100_000) }
        XCTAssertGreaterThan(slowloris.closedByServer, 0, "a request whose headers never end is cut at a deadline")
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/", from: "127.0.0.2").status, 200)
    }

    /// A folder with the root page: enough to serve, and nothing to sync first.
    private static func site() throws -> URL {
        let folder = try Paths.temporaryFolder()
        try Data("<!doctype html><title>gallery</title>\n".utf8).write(to: folder.appendingPathComponent("index.html"))
        return folder
    }
}
