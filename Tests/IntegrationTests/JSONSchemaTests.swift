import Foundation
import XCTest

/// Issue 25, item 4: every `--json` output is one document (one a line for watch) on stdout, and
/// validates against its docs/schema file.
final class JSONSchemaTests: XCTestCase {
    /// A cache synced from a feed of three photos and one missing image (a failure to report).
    private func syncedCache() throws -> (dated: DatedSite, feed: String, cache: URL, sync: Photomirror.Result) {
        let dated = try DatedSite(photos: 3)
        var items = dated.items(3)
        items.append(DatedFeed.Item(id: "missing", date: dated.newest, media: dated.server.url("photos/missing.jpg")))
        try DatedFeed.rss.write(title: "Schema", items: items, to: dated.site.root.appendingPathComponent("feed.rss"))
        let feed = dated.server.url("feed.rss")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let sync = try Photomirror().run(["sync", "--json", "--max", "100MB", "--cache", cache.path, feed])
        XCTAssertEqual(sync.status, 1, sync.stderr)
        return (dated, feed, cache, sync)
    }

    func testEveryCommandsJSONFitsItsSchema() throws {
        let (dated, feed, cache, sync) = try syncedCache()
        try JSONSchemaCheck.assertValid(sync.stdout, against: "sync")
        let failures = try XCTUnwrap((try CacheDisk.json(sync.stdout))["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.first?["status"] as? Int, 404, sync.stdout)
        XCTAssertEqual(failures.first?["url"] as? String, dated.server.url("photos/missing.jpg"))

        let runs: [(String, [String])] = [
            ("sync", ["sync", "--json", "--dry-run", "--max", "1kB", "--cache", cache.path, feed]),
            ("prune", ["prune", "--json", "--max", "100MB", "--cache", cache.path]),
            ("prune", ["prune", "--json", "--dry-run", "--max", "1kB", "--cache", cache.path]),
            ("verify", ["verify", "--json", "--cache", cache.path]),
            ("verify", ["verify", "--json", "--repair", "--cache", cache.path]),
            ("stats", ["stats", "--json", "--cache", cache.path]),
            ("feed", ["feed", "--json", feed]),
            ("config", ["config", "--json", "--cache", cache.path]),
        ]
        for (schema, arguments) in runs {
            let result = try Photomirror().run(arguments)
            XCTAssertTrue([0, 1].contains(result.status), "\(arguments): \(result.stderr)")
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)),
                            "\(arguments): stdout holds one JSON document and nothing else:\n\(result.stdout)")
            try JSONSchemaCheck.assertValid(result.stdout, against: schema)
        }

        // A sync that cannot run still prints its document.
        let notAFolder = try Paths.temporaryFolder().appendingPathComponent("file")
        try Data("x".utf8).write(to: notAFolder)
        let failed = try Photomirror().run(["sync", "--json", "--cache", notAFolder.path, feed])
        XCTAssertEqual(failed.status, 4, failed.stderr)
        try JSONSchemaCheck.assertValid(failed.stdout, against: "sync")
    }

    func testEveryWatchRoundIsOneLineThatFitsItsSchema() throws {
        let (_, feed, cache, _) = try syncedCache()
        let folder = try Paths.temporaryFolder()
        let stdout = folder.appendingPathComponent("stdout"), stderr = folder.appendingPathComponent("stderr")
        for file in [stdout, stderr] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = ["watch", "--json", "--every", "1s", "--cache", cache.path, feed]
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        // Waits for two rounds; the test's own timeout catches a watch that never writes one.
        while ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let output = try String(contentsOf: stdout, encoding: .utf8)
        for line in output.split(separator: "\n") {
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "one document a line: \(line)")
        }
        try JSONSchemaCheck.assertValid(output, against: "watch", lines: true)
    }
}
