import Foundation
import XCTest

/// `watch --stats-every`: in a log (stderr a file here), a round that takes a while prints
/// progress lines as `sync` does; the wait between rounds prints none.
final class WatchStatsTests: XCTestCase {
    func testASlowRoundIntoALogWritesProgressLines() throws {
        let dated = try DatedSite(photos: 2)
        let slow = dated.items(2).map { item -> DatedFeed.Item in
            var item = item
            item.media = item.media.replacingOccurrences(of: "/photos/", with: "/fault/slow/2/photos/")
            return item
        }
        try DatedFeed.rss.write(title: "Slow", items: slow, to: dated.site.root.appendingPathComponent("feed.rss"))
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let output = folder.appendingPathComponent("watch.log")
        let watch = try Photomirror().start(["watch", "--every", "1h", "--stats-every", "1s", "--jobs", "1", "--cache", cache,
                                             dated.server.url("fault/slow/2/feed.rss")], output: output)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        func log() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        // The round's line ends it; a generous bound only stops a test whose watch hangs.
        let deadline = Date().addingTimeInterval(120)
        while !log().contains("round 1 at "), Date() < deadline, watch.isRunning { Thread.sleep(forTimeInterval: 0.2) }
        let roundDone = log()
        XCTAssertTrue(roundDone.contains("round 1 at "), "the first round ended: \(roundDone)")
        // Long enough for a ticker left running to print a line or two after the round.
        Thread.sleep(forTimeInterval: 2.5)
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        let text = log()
        XCTAssertEqual(watch.terminationStatus, 143, text)
        let lines = text.split(separator: "\n").map(String.init)
        let round = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("round 1 at ") }, text)
        let progress = lines[..<round].filter { $0.hasPrefix("progress: ") }
        XCTAssertFalse(progress.isEmpty, "a progress line every --stats-every during the round: \(text)")
        XCTAssertTrue(progress.contains { $0.contains("/2 images") && $0.contains(" elapsed") }, text)
        XCTAssertFalse(lines[round...].contains { $0.hasPrefix("progress: ") }, "none between rounds: \(text)")
        XCTAssertFalse(text.contains("\u{1B}"), "no control characters in a log")

        let quiet = try Photomirror().start(["watch", "--quiet", "--every", "1h", "--stats-every", "1s", "--cache",
                                             folder.appendingPathComponent("quiet-cache").path,
                                             dated.server.url("fault/slow/2/feed.rss")], output: output)
        defer { if quiet.isRunning { kill(quiet.processIdentifier, SIGKILL) } }
        // --quiet prints no round line, so wait for the cache's gallery instead.
        let gallery = folder.appendingPathComponent("quiet-cache/index.html").path
        let quietDeadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: gallery), Date() < quietDeadline, quiet.isRunning {
            Thread.sleep(forTimeInterval: 0.2)
        }
        kill(quiet.processIdentifier, SIGTERM)
        quiet.waitUntilExit()
        XCTAssertFalse(log().contains("progress: "), "--quiet prints no progress: \(log())")
    }
}
