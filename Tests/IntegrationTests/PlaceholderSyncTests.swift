import Foundation
import XCTest

/// Issue 27: every mirrored image's ThumbHash is in the index (`originals.placeholder`), its
/// feed's manifest, its JSON Feed (`_photomirror.thumbhash`) and the feed page (an inline
/// background of the `<img>`), all the same; an index rebuilt from the manifests has it again.
final class PlaceholderSyncTests: XCTestCase {
    func testASyncedImageHasItsPlaceholderEverywhereAndARebuiltIndexKeepsIt() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()
        let sync = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let feed = try CacheInspection.firstFeed(fromSummary: sync.stdout)
        let folder = try XCTUnwrap(feed["manifest"] as? String).replacingOccurrences(of: "/manifest.json", with: "")

        let indexed = try placeholders(in: cache)
        XCTAssertEqual(indexed.count, 3, "each original has one")
        for placeholder in indexed.values {
            let hash = try XCTUnwrap(Data(base64Encoded: placeholder), placeholder)
            XCTAssertTrue((5...40).contains(hash.count), "a ThumbHash is some 20 to 30 bytes: \(hash.count)")
        }

        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertEqual(items.count, 3)
        for item in items {
            let sha256 = try XCTUnwrap(item["sha256"] as? String)
            XCTAssertEqual(item["placeholder"] as? String, indexed[sha256], "the manifest's item")
            let media = try XCTUnwrap((item["media"] as? [[String: Any]])?.first)
            XCTAssertEqual(media["placeholder"] as? String, indexed[sha256], "its media entry")
        }

        let jsonFeed = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent("\(folder)/feed.json")))
        let feedItems = try XCTUnwrap((jsonFeed as? [String: Any])?["items"] as? [[String: Any]])
        let thumbhashes = feedItems.compactMap { ($0["_photomirror"] as? [String: Any])?["thumbhash"] as? String }
        XCTAssertEqual(Set(thumbhashes), Set(indexed.values), "one per item's image, in the item's extension object")

        let page = try String(contentsOf: cache.appendingPathComponent("\(folder)/index.html"), encoding: .utf8)
        let painted = page.components(separatedBy: "style=\"background:url(data:image/png;base64,").count - 1
        XCTAssertEqual(painted, 3, "each card's <img> is painted with its placeholder")

        // The index gone: a repair rebuilds it from the manifests and the files, placeholders included.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache.path + "/index.sqlite" + suffix) }
        let repair = try photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertEqual(try placeholders(in: cache), indexed, "the rebuilt index")
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    /// `originals.placeholder` by hash, read with Python's sqlite3 (the test does not link SQLite).
    private func placeholders(in cache: URL) throws -> [String: String] {
        let script = """
            import json, sqlite3, sys
            rows = sqlite3.connect(sys.argv[1]).execute("SELECT sha256, placeholder FROM originals WHERE placeholder IS NOT NULL")
            print(json.dumps(dict(rows.fetchall())))
            """
        let read = try Command.run("/usr/bin/env", ["python3", "-c", script, cache.appendingPathComponent("index.sqlite").path])
        XCTAssertEqual(read.status, 0, read.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: String])
    }
}
