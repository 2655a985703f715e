import Foundation
import XCTest

/// What `sync` prints: plain lines for pipes and logs, one live line on a terminal.
final class ProgressOutputTests: XCTestCase {
    private func servedFeed(photos: Int) throws -> (FixtureServer, String) {
        let site = try FeedSite(photos: try Paths.photos(count: photos))
        let server = try FixtureServer(root: site.root)
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        return (server, server.url("feed.js"))
    }

    func testWithoutATerminalTheOutputIsPlainLines() throws {
        let (server, feed) = try servedFeed(photos: 3)
        defer { server.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        // NO_COLOR unset: plain text must come from stderr not being a terminal.
        let sync = try Photomirror(environment: ["NO_COLOR": ""]).run(["sync", "--cache", cache.path, feed])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let controls = sync.stderr.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7f }
        XCTAssertTrue(controls.isEmpty, "control characters in \(sync.stderr.debugDescription)")
        let lines = sync.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            "feed \"Uploads tagged test\": 3 items, 3 ok, 0 failed; 3 downloaded, 0 already cached",
            "synced 1 of 1 feed: 3 images ok, 0 failed, \(lines[1].split(separator: ",").last!.dropFirst())",
            "gallery: \(cache.appendingPathComponent("index.html").absoluteString)",
        ])
        XCTAssertNotNil(lines[1].range(of: #" downloaded in \d+\.\d s$"#, options: .regularExpression), lines[1])

        let quiet = try Photomirror().run(["sync", "--quiet", "--cache", cache.path, feed])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "", "--quiet prints nothing when nothing failed")

        let verbose = try Photomirror().run(["sync", "--verbose", "--cache", cache.path, feed])
        let itemLines = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("item ") }
        XCTAssertEqual(itemLines.count, 3, verbose.stderr)
        XCTAssertTrue(itemLines.allSatisfy { $0.contains(": ok http://127.0.0.1:") && $0.contains("→ thumbs/40x40/") },
                      verbose.stderr)
    }

    func testOnATerminalProgressRedrawsOneLine() throws {
        let (server, feed) = try servedFeed(photos: 4)
        defer { server.stop() }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let run = try PseudoTerminal.runCapturingStderr(Paths.binary, ["sync", "--cache", cache.path, feed],
                                                        environment: ["NO_COLOR": ""])
        XCTAssertEqual(run.status, 0, run.stderr)
        // Everything before the summary is the live line: redrawn in place, never a new line.
        let summaryStart = try XCTUnwrap(run.stderr.range(of: "feed \"Uploads tagged test\""), run.stderr.debugDescription)
        let live = String(run.stderr[..<summaryStart.lowerBound])
        XCTAssertFalse(live.contains("\n"), live.debugDescription)
        let draws = live.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        XCTAssertGreaterThanOrEqual(draws.count, 2, live.debugDescription)
        XCTAssertTrue(draws.first?.contains("0/4 images") == true, live.debugDescription)
        XCTAssertTrue(draws.last?.contains("4/4 images") == true, live.debugDescription)
        XCTAssertTrue(live.hasSuffix("\r\u{1B}[K"), "the line is cleared before the summary: \(live.debugDescription)")
        XCTAssertTrue(live.contains("\u{1B}[1m"), "bold on a terminal without NO_COLOR")
        XCTAssertTrue(run.stderr.hasSuffix("gallery: \(cache.appendingPathComponent("index.html").absoluteString)\n"))

        let plain = try PseudoTerminal.runCapturingStderr(Paths.binary, ["sync", "--cache", cache.path, feed],
                                                          environment: ["NO_COLOR": "1"])
        XCTAssertTrue(plain.stderr.contains("\r\u{1B}[K4/4 images"), plain.stderr.debugDescription)
        XCTAssertFalse(plain.stderr.contains("\u{1B}[1m"), "NO_COLOR: no styling, only the line's redraws")
    }
}
