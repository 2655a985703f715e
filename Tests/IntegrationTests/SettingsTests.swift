import Foundation
import XCTest

/// Issue 25, item 1: a cache keeps the settings it was given; flags beat the cache's config.json,
/// which beats the user's, which beats the built-in defaults; `config` says which won.
final class SettingsTests: XCTestCase {
    private func thumbnailSizes(_ cache: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("thumbs").path)) ?? [])
    }

    func testSizesAndScalesStickAcrossAPlainSync() throws {
        let dated = try DatedSite(photos: 2)
        let feed = try dated.feed(.rss, items: 2)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let first = try Photomirror().run(["sync", "--cache", cache.path, "--size", "120x80", "--scales", "1,2", feed])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(thumbnailSizes(cache), ["120x80", "240x160"])
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent("config.json"))) as? [String: Any]
        XCTAssertEqual(config?["sizes"] as? [String], ["120x80"])
        XCTAssertEqual(config?["scales"] as? [Int], [1, 2])

        let plain = try Photomirror().run(["sync", "--json", "--cache", cache.path, feed])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(thumbnailSizes(cache), ["120x80", "240x160"], "a plain sync made no 40x40")
        let items = try CacheInspection.manifestItems(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: plain.stdout))
        XCTAssertTrue(items.allSatisfy { ($0["thumbnail"] as? String)?.hasPrefix("thumbs/120x80/") == true }, "\(items)")
    }

    func testFlagsBeatTheCacheConfigWhichBeatsTheUserConfig() throws {
        let folder = try Paths.temporaryFolder()
        let xdg = folder.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: xdg.appendingPathComponent("photomirror"), withIntermediateDirectories: true)
        try Data(#"{"sizes": ["60x60"], "jobs": 3, "rate": 50, "user_agent": "from-user/1"}"#.utf8)
            .write(to: xdg.appendingPathComponent("photomirror/config.json"))
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data(#"{"jobs": 5, "user_agent": "from-cache/1"}"#.utf8).write(to: cache.appendingPathComponent("config.json"))
        let photomirror = Photomirror(environment: ["XDG_CONFIG_HOME": xdg.path])

        let shown = try photomirror.run(["config", "--json", "--cache", cache.path])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let settings = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["settings"]
            as? [String: [String: Any]])
        XCTAssertEqual(settings["sizes"]?["source"] as? String, "user")
        XCTAssertEqual(settings["sizes"]?["value"] as? [String], ["60x60"])
        XCTAssertEqual(settings["jobs"]?["source"] as? String, "cache")
        XCTAssertEqual(settings["jobs"]?["value"] as? Int, 5)
        XCTAssertEqual(settings["jobs"]?["file"] as? String, cache.appendingPathComponent("config.json").path)
        XCTAssertEqual(settings["per_host"]?["source"] as? String, "built-in")
        XCTAssertEqual(settings["rate"]?["value"] as? Double, 50)
        XCTAssertEqual(shown.stdout.components(separatedBy: "\"schema_version\"").count, 2)

        // The user's size and the cache's agent, then a flag over the cache's agent.
        let dated = try DatedSite(photos: 1)
        let feed = try dated.feed(.atom, items: 1)
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache.path, feed]).status, 0)
        XCTAssertEqual(thumbnailSizes(cache), ["60x60"])
        XCTAssertTrue(dated.server.userAgents.contains { $0.hasSuffix(" from-cache/1") }, "\(dated.server.userAgents)")
        dated.server.clearLog()
        let flagged = try photomirror.run(["sync", "--cache", cache.path, "--user-agent", "from-flag/1", "--size", "30x30", feed])
        XCTAssertEqual(flagged.status, 0, flagged.stderr)
        XCTAssertTrue(dated.server.userAgents.allSatisfy { $0.hasSuffix(" from-flag/1") }, "\(dated.server.userAgents)")
        XCTAssertTrue(thumbnailSizes(cache).contains("30x30"))
        let after = try photomirror.run(["config", "--cache", cache.path])
        XCTAssertTrue(after.stdout.contains("user_agent     from-flag/1"), "the flag stuck: \(after.stdout)")
    }

    func testAnUnknownKeyNamesTheFileTheKeyAndTheKnownKeys() throws {
        let folder = try Paths.temporaryFolder()
        let xdg = folder.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: xdg.appendingPathComponent("photomirror"), withIntermediateDirectories: true)
        let file = xdg.appendingPathComponent("photomirror/config.json")
        try Data(#"{"size": ["60x60"]}"#.utf8).write(to: file)
        let cache = folder.appendingPathComponent("cache")
        let photomirror = Photomirror(environment: ["XDG_CONFIG_HOME": xdg.path])
        for command in [["config"], ["sync", "file:///nowhere/feed.xml"]] {
            let result = try photomirror.run(command + ["--cache", cache.path])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(file.path): unknown setting \"size\" (known: fit, format, gallery_title, jobs, max_age"),
                          result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path), "refused before any cache was made")
    }
}
