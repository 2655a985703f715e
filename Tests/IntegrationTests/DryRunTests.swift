import Foundation
import XCTest

/// Issue 25, item 2: `sync --dry-run` fetches the feeds and says what a sync would do, leaving
/// the cache byte for byte as it was; the sync that follows does what it said.
final class DryRunTests: XCTestCase {
    /// Every file under `folder` and its bytes' digest; nil when the folder does not exist.
    private func snapshot(_ folder: URL) throws -> [String: Data]? {
        guard FileManager.default.fileExists(atPath: folder.path) else { return nil }
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let name = walker?.nextObject() as? String {
            files[name] = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
        }
        return files
    }

    private func document(_ result: Photomirror.Result) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
    }

    /// The image paths a server answered with 200 since its log was cleared.
    private func downloads(_ server: FixtureServer) -> Set<String> {
        Set(server.requests.filter { $0.hasPrefix("GET /photos/") && $0.hasSuffix(" 200") }
            .map { String($0.split(separator: " ")[1]) })
    }

    func testADryRunWritesNothingAndSaysWhatTheSyncThenDoes() throws {
        let dated = try DatedSite(photos: 4)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let rss = try dated.feed(.rss, items: 2)

        // No cache yet: none is made, and the plan is every image.
        let first = try Photomirror().run(["sync", "--dry-run", "--json", "--cache", cache.path, rss])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertNil(try snapshot(cache), "a dry run made no cache folder")
        let plan = try XCTUnwrap(try document(first)["plan"] as? [String: Any])
        XCTAssertEqual(plan["originals"] as? Int, 2)
        XCTAssertTrue(first.stderr.contains("dry run: would download 2 images"), first.stderr)

        let synced = try Photomirror().run(["sync", "--cache", cache.path, rss])
        XCTAssertEqual(synced.status, 0, synced.stderr)

        // A longer feed: the dry run names the new images, and the sync downloads exactly those.
        let longer = try dated.feed(.rss, items: 4)
        dated.server.clearLog()
        let before = try snapshot(cache)
        let dry = try Photomirror().run(["sync", "-n", "--json", "--size", "64x64", "--cache", cache.path, longer])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(try snapshot(cache), before, "the cache is byte for byte as it was")
        let dryDocument = try document(dry)
        XCTAssertEqual(dryDocument["dry_run"] as? Bool, true)
        let planned = try XCTUnwrap((dryDocument["plan"] as? [String: Any])?["downloads"] as? [String])
        XCTAssertEqual(planned.count, 2, dry.stdout)
        XCTAssertTrue(downloads(dated.server).isEmpty, "a dry run downloads no image")

        let real = try Photomirror().run(["sync", "--json", "--cache", cache.path, longer])
        XCTAssertEqual(real.status, 0, real.stderr)
        let totals = try XCTUnwrap(try document(real)["totals"] as? [String: Any])
        XCTAssertEqual(totals["downloaded"] as? Int, planned.count)
        XCTAssertEqual(downloads(dated.server), Set(planned.map { URL(string: $0)!.path }))
        XCTAssertEqual(try snapshot(cache)?.keys.contains { $0.hasPrefix("thumbs/64x64") }, false,
                       "the dry run's --size was not recorded")
    }
}
