import Foundation
import XCTest

/// Issue 25: `--min-pixels WxH` leaves icons and spacers out by the size their header declares,
/// and says so as skipped, not failed.
final class MinPixelsTests: XCTestCase {
    /// A local feed of three items: a 1×1 GIF spacer, a 16×16 PNG icon and a photo.
    struct IconSite {
        let dated: DatedSite
        let feed: String

        init() throws {
            dated = try DatedSite(photos: 1)
            let photos = dated.site.root.appendingPathComponent("photos")
            try SkippedImageTests.spacer.write(to: photos.appendingPathComponent("spacer.gif"))
            try Self.writeIcon(to: photos.appendingPathComponent("icon.png"))
            var items = dated.items(1)
            items.append(DatedFeed.Item(id: "spacer", date: dated.newest, media: dated.server.url("photos/spacer.gif")))
            items.append(DatedFeed.Item(id: "icon", date: dated.newest, media: dated.server.url("photos/icon.png")))
            try DatedFeed.jsonFeed.write(title: "Icons", items: items, to: dated.site.root.appendingPathComponent("feed.json"))
            feed = dated.server.url("feed.json")
        }

        /// 16×16 opaque RGB, made with Python's zlib as GalleryBrowserTests makes its PNG.
        static func writeIcon(to file: URL) throws {
            let script = """
                import struct, sys, zlib
                size = 16
                rows = b"".join(b"\\0" + b"".join(bytes([x * 16, y * 16, 128]) for x in range(size)) for y in range(size))
                chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
                open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
                                              + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
                """
            let made = try Command.run("/usr/bin/env", ["python3", "-c", script, file.path])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
    }

    private func files(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url.lastPathComponent) }
        }
        return found
    }

    func testImagesUnderMinPixelsAreSkippedNotFailedAndNeverStored() throws {
        let site = try IconSite()
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--json", "--min-pixels", "32x32", "--cache", cache.path, site.feed])
        XCTAssertEqual(result.status, 0, "a skip is not a failure: \(result.stderr)")
        try JSONSchemaCheck.assertValid(result.stdout, against: "sync")
        let document = try CacheDisk.json(result.stdout)
        let totals = try XCTUnwrap(document["totals"] as? [String: Any])
        XCTAssertEqual(totals["images_skipped"] as? Int, 2, result.stdout)
        XCTAssertEqual(totals["images_ok"] as? Int, 1, result.stdout)
        XCTAssertEqual(totals["images_failed"] as? Int, 0, result.stdout)
        XCTAssertEqual(try CacheInspection.firstFeed(fromSummary: result.stdout)["skipped"] as? Int, 2, result.stdout)

        let feed = try CacheInspection.firstFeed(fromSummary: result.stdout)
        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        let byID = Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["id"] as? String).map { ($0, item) } })
        XCTAssertEqual(byID["item-0"]?["status"] as? String, "ok")
        XCTAssertEqual(byID["spacer"]?["status"] as? String, "skipped")
        XCTAssertEqual(byID["icon"]?["status"] as? String, "skipped")
        XCTAssertEqual(byID["spacer"]?["error"] as? String, "skipped: 1×1 px, under --min-pixels 32x32")
        XCTAssertEqual(byID["icon"]?["error"] as? String, "skipped: 16×16 px, under --min-pixels 32x32")
        XCTAssertTrue(result.stderr.contains("1 ok, 0 failed, 2 skipped"), result.stderr)

        // Only the photo's original and thumbnail were stored.
        XCTAssertEqual(files(under: cache.appendingPathComponent("originals")).count, 1)
        XCTAssertEqual(files(under: cache.appendingPathComponent("thumbs")).count, 1)
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)

        // The next sync asks for them again; without the flag they are stored like any image.
        let again = try Photomirror().run(["sync", "--json", "--cache", cache.path, site.feed])
        XCTAssertEqual(again.status, 0, again.stderr)
        try JSONSchemaCheck.assertValid(again.stdout, against: "sync")
        let statuses = try CacheInspection.manifestItems(cache: cache, feed: feed).compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses, ["ok", "ok", "ok"])
        XCTAssertEqual(files(under: cache.appendingPathComponent("originals")).count, 3)
    }

    func testWithoutMinPixelsEveryImageIsStored() throws {
        let site = try IconSite()
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--json", "--cache", cache.path, site.feed])
        XCTAssertEqual(result.status, 0, result.stderr)
        try JSONSchemaCheck.assertValid(result.stdout, against: "sync")
        let totals = try XCTUnwrap(try CacheDisk.json(result.stdout)["totals"] as? [String: Any])
        XCTAssertEqual(totals["images_ok"] as? Int, 3, result.stdout)
        XCTAssertEqual(totals["images_skipped"] as? Int, 0, result.stdout)
        XCTAssertEqual(files(under: cache.appendingPathComponent("originals")).count, 3)

        // The limit judges downloads: what the cache holds already is kept (docs/configuration.md).
        let limited = try Photomirror().run(["sync", "--json", "--min-pixels", "32x32", "--cache", cache.path, site.feed])
        XCTAssertEqual(limited.status, 0, limited.stderr)
        let kept = try XCTUnwrap(try CacheDisk.json(limited.stdout)["totals"] as? [String: Any])
        XCTAssertEqual(kept["images_ok"] as? Int, 3, limited.stdout)
        XCTAssertEqual(kept["images_skipped"] as? Int, 0, limited.stdout)
        XCTAssertEqual(kept["downloaded"] as? Int, 0, limited.stdout)
    }

    func testAMinPixelsThatIsNoSizeIsAUsageError() throws {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        for (value, reason) in [("0x0", "at least 1"), ("abc", "a width and a height"), ("10", "a width and a height"),
                                ("-5x5", "negative"), ("5x-5", "negative")] {
            let bad = try Photomirror().run(["sync", "--min-pixels", value, "--cache", cache.path, "file:///x.rss"])
            XCTAssertEqual(bad.status, 2, "\(value): \(bad.stderr)")
            XCTAssertTrue(bad.stderr.contains("--min-pixels: \"\(value)\" is not a size in pixels"), bad.stderr)
            XCTAssertTrue(bad.stderr.contains(reason), "\(value): \(bad.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path))
    }
}

/// `min_pixels` and `min_bytes` in a config.json: a flag beats the cache's file, which beats the
/// user's; `config` says which won; a sync never records them.
final class MinPixelsSettingTests: XCTestCase {
    func testTheCacheConfigBeatsTheUsersAndAFlagBeatsBoth() throws {
        let site = try MinPixelsTests.IconSite()
        let folder = try Paths.temporaryFolder()
        let xdg = folder.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: xdg.appendingPathComponent("photomirror"), withIntermediateDirectories: true)
        try Data(#"{"min_pixels": "8x8", "min_bytes": "10"}"#.utf8).write(to: xdg.appendingPathComponent("photomirror/config.json"))
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let cacheConfig = cache.appendingPathComponent("config.json")
        try Data(#"{"min_pixels": "32x32"}"#.utf8).write(to: cacheConfig)
        let photomirror = Photomirror(environment: ["XDG_CONFIG_HOME": xdg.path])

        let shown = try photomirror.run(["config", "--json", "--cache", cache.path])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        try JSONSchemaCheck.assertValid(shown.stdout, against: "config")
        let settings = try XCTUnwrap((try CacheDisk.json(shown.stdout))["settings"] as? [String: [String: Any]])
        XCTAssertEqual(settings["min_pixels"]?["value"] as? String, "32x32")
        XCTAssertEqual(settings["min_pixels"]?["source"] as? String, "cache")
        XCTAssertEqual(settings["min_bytes"]?["value"] as? Int, 10)
        XCTAssertEqual(settings["min_bytes"]?["source"] as? String, "user")
        let text = try photomirror.run(["config", "--cache", cache.path])
        XCTAssertTrue(text.stdout.contains("min_pixels     32x32"), text.stdout)

        // The cache's 32x32 leaves out the spacer and the icon.
        let plain = try photomirror.run(["sync", "--json", "--cache", cache.path, site.feed])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let totals = try XCTUnwrap(try CacheDisk.json(plain.stdout)["totals"] as? [String: Any])
        XCTAssertEqual(totals["images_skipped"] as? Int, 2, plain.stdout)

        // A flag's 8x8 keeps the icon; the spacer is still under it. Nothing is recorded.
        let flagged = try photomirror.run(["sync", "--json", "--min-pixels", "8x8", "--cache", cache.path, site.feed])
        XCTAssertEqual(flagged.status, 0, flagged.stderr)
        let flaggedTotals = try XCTUnwrap(try CacheDisk.json(flagged.stdout)["totals"] as? [String: Any])
        XCTAssertEqual(flaggedTotals["images_skipped"] as? Int, 1, flagged.stdout)
        XCTAssertEqual(flaggedTotals["images_ok"] as? Int, 2, flagged.stdout)
        XCTAssertEqual(try String(contentsOf: cacheConfig, encoding: .utf8), #"{"min_pixels": "32x32"}"#)
    }
}
