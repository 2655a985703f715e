import Foundation
import XCTest

/// Issue 27: thumbnails in the format and shape a page wants, through the real binary: `thumb`
/// and `sync` for each format and fit, one cache holding several variants of the same size,
/// `verify` clean, an index rebuilt with them, `serve` sending each format's type, `prune`
/// deleting them all.
final class ThumbnailFormatsTests: XCTestCase {
    /// (format flag, fit flag, the variant folder a 40x40 gets, the file's extension, the type)
    static let variants = [
        ("webp", "cover", "40x40.webp", "webp", "image/webp"),
        ("avif", "contain", "40x40-contain.avif", "avif", "image/avif"),
        ("jpeg", "contain", "40x40-contain.jpg", "jpg", "image/jpeg"),
        ("png", "contain", "40x40-contain", "png", "image/png"),
        ("webp", "contain", "40x40-contain-q40.webp", "webp", "image/webp"),
    ]

    func testThumbWritesEachFormatAndFit() throws {
        let photo = try XCTUnwrap(try Paths.photos(count: 1).first)
        let output = try Paths.temporaryFolder()
        let photomirror = Photomirror()
        for format in ["png", "webp", "avif", "jpeg"] {
            for fit in ["cover", "contain"] {
                let folder = output.appendingPathComponent("\(format)-\(fit)")
                let result = try photomirror.run(["thumb", "--format", format, "--fit", fit, "--quality", "60",
                                                  "--size", "64x32", "-o", folder.path, photo.path])
                XCTAssertEqual(result.status, 0, result.stderr)
                let fileExtension = format == "jpeg" ? "jpg" : format
                let name = photo.deletingPathExtension().lastPathComponent + "." + fileExtension
                let file = try XCTUnwrap(ThumbnailFile(try Data(contentsOf: folder.appendingPathComponent(name))),
                                         "\(format) \(fit): \(name) is not a \(format)")
                XCTAssertEqual(file, ThumbnailFile(format: format, width: 64, height: 32), "\(format) \(fit)")
            }
        }
        // A square box for a wide photo: contain pads above and below, transparently in PNG.
        let contained = output.appendingPathComponent("square")
        XCTAssertEqual(try photomirror.run(["thumb", "--fit", "contain", "--size", "40x40", "-o", contained.path,
                                            photo.path]).status, 0)
        let png = [UInt8](try Data(contentsOf: contained.appendingPathComponent(
            photo.deletingPathExtension().lastPathComponent + ".png")))
        XCTAssertEqual(png[25], 6, "colour type RGBA: the padding is transparent")

        let wrong = try photomirror.run(["thumb", "--format", "gif", "-o", output.path, photo.path])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("--format must be one of png, webp, avif, jpeg, jpg"), wrong.stderr)
        XCTAssertEqual(try photomirror.run(["thumb", "--quality", "0", "-o", output.path, photo.path]).status, 2)
    }

    func testSyncKeepsEveryVariantBesideTheOthersAndVerifyServeAndPruneKnowThem() throws {
        let mirror = try TwoFeeds.make()
        defer { mirror.server.stop() }
        let cache = mirror.folder.appendingPathComponent("cache")
        let photomirror = mirror.photomirror

        // Today's default first: the plain 40x40 PNGs, as every cache has them.
        XCTAssertEqual(try mirror.sync(cache, [mirror.older]).status, 0)
        let plainItems = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.older))
        XCTAssertTrue(plainItems.allSatisfy { ($0["thumbnail"] as? String)?.hasPrefix("thumbs/40x40/") == true })

        for (format, fit, folder, fileExtension, _) in Self.variants {
            var flags = ["--format", format, "--fit", fit]
            if folder.contains("-q40") { flags += ["--quality", "40"] }
            let sync = try photomirror.run(["sync", "--json", "--cache", cache.path] + flags + [mirror.older])
            XCTAssertEqual(sync.status, 0, "\(folder): \(sync.stderr)")
            // The new variant is made from the stored originals: nothing is downloaded again.
            let summary = try CacheInspection.firstFeed(fromSummary: sync.stdout)
            XCTAssertEqual(summary["downloaded"] as? Int, 0, sync.stdout)
            let items = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.older))
            XCTAssertEqual(items.count, TwoFeeds.olderPhotos.count)
            let page = try String(contentsOf: cache.appendingPathComponent(
                (try manifestPath(cache, mirror.older) as NSString).deletingLastPathComponent + "/index.html"), encoding: .utf8)
            for item in items {
                XCTAssertEqual(item["status"] as? String, "ok", "\(folder): \(item)")
                let sha256 = try XCTUnwrap(item["sha256"] as? String)
                let expected = "thumbs/\(folder)/\(sha256.prefix(2))/\(sha256).\(fileExtension)"
                XCTAssertEqual(item["thumbnail"] as? String, expected, "the gallery's thumbnail is the new variant")
                let thumbnails = try XCTUnwrap(item["thumbnails"] as? [String: String])
                XCTAssertEqual(thumbnails[folder], expected)
                XCTAssertEqual(thumbnails["40x40"], "thumbs/40x40/\(sha256.prefix(2))/\(sha256).png",
                               "one cache holds several variants of one size")
                let file = try XCTUnwrap(ThumbnailFile(try Data(contentsOf: cache.appendingPathComponent(expected))), expected)
                XCTAssertEqual(file, ThumbnailFile(format: format, width: 40, height: 40), expected)
                XCTAssertTrue(page.contains(expected), "\(folder): the page shows \(expected)")
            }
            let verify = try photomirror.run(["verify", "--cache", cache.path])
            XCTAssertEqual(verify.status, 0, "\(folder): \(verify.stderr)")
            XCTAssertTrue(verify.stderr.contains("verify ok"), verify.stderr)
        }

        // serve sends each variant with its format's type.
        let items = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.older))
        let thumbnails = try XCTUnwrap(items.first?["thumbnails"] as? [String: String])
        let serve = try ServeProcess(cache: cache)
        for (_, _, folder, _, type) in Self.variants {
            let path = try XCTUnwrap(thumbnails[folder], folder)
            let response = try RawHTTP.request(port: serve.port, "GET", "/" + path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.header("Content-Type"), type, path)
            XCTAssertEqual(Data(response.body), try Data(contentsOf: cache.appendingPathComponent(path)), path)
        }
        serve.stop()

        // A lost index is rebuilt from the manifests and the files: every variant's rows too.
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
            try? FileManager.default.removeItem(at: cache.appendingPathComponent(name))
        }
        let repair = try photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache.path]).status, 0)
        let rebuilt = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.older))
        XCTAssertEqual(rebuilt.first?["thumbnails"] as? [String: String], thumbnails, "the rebuilt index names every variant")

        // A feed that lists nothing any more: prune deletes its images whole, every variant (a
        // cache without them is some 460 kB: index, pages; a limit just over that takes them all).
        try mirror.relistOlder([])
        XCTAssertEqual(try mirror.sync(cache, [mirror.older]).status, 0)
        let prune = try photomirror.run(["prune", "--max", "600KB", "--cache", cache.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        for (_, _, folder, _, _) in Self.variants {
            XCTAssertEqual(CacheDisk.files(in: cache, under: "thumbs/\(folder)"), [], "\(folder) pruned")
        }
        XCTAssertEqual(CacheDisk.files(in: cache, under: "thumbs/40x40"), [])
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
    }

    func testAFormatInTheCachesConfigMakesItsThumbnailsAndAnUnknownOneIsRefused() throws {
        let mirror = try TwoFeeds.make()
        defer { mirror.server.stop() }
        let cache = mirror.folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data(#"{"format": "webp", "fit": "contain", "quality": 90}"#.utf8)
            .write(to: cache.appendingPathComponent("config.json"))
        XCTAssertEqual(try mirror.sync(cache, [mirror.newer]).status, 0)
        let items = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.newer))
        XCTAssertFalse(items.isEmpty)
        for item in items {
            XCTAssertTrue((item["thumbnail"] as? String)?.hasPrefix("thumbs/40x40-contain-q90.webp/") == true, "\(item)")
        }
        // The flag beats the file, and sticks there as --size does: the next plain sync keeps it.
        XCTAssertEqual(try mirror.sync(cache, [mirror.newer], ["--format", "avif"]).status, 0)
        let again = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.newer))
        XCTAssertTrue(again.allSatisfy { ($0["thumbnail"] as? String)?.hasPrefix("thumbs/40x40-contain-q90.avif/") == true })
        let config = try String(contentsOf: cache.appendingPathComponent("config.json"), encoding: .utf8)
        XCTAssertTrue(config.contains("\"format\"") && config.contains("avif"), config)
        XCTAssertEqual(try mirror.sync(cache, [mirror.newer]).status, 0)
        let kept = try CacheDisk.manifestItems(cache, path: try manifestPath(cache, mirror.newer))
        XCTAssertTrue(kept.allSatisfy { ($0["thumbnail"] as? String)?.hasPrefix("thumbs/40x40-contain-q90.avif/") == true })

        try Data(#"{"format": "bmp"}"#.utf8).write(to: cache.appendingPathComponent("config.json"))
        let refused = try mirror.sync(cache, [mirror.newer])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("format must be one of"), refused.stderr)
    }

    /// A libheif that cannot encode (here: a stand-in libheif.so.1 without its functions, found
    /// first through LD_LIBRARY_PATH) makes `--format avif` a usage error before any work,
    /// whether it comes from the flag or the cache's config.
    func testAVIFIsRefusedWhereLibheifCannotWriteIt() throws {
        let folder = try Paths.temporaryFolder()
        let stub = folder.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: stub, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("empty.c")
        try Data("int pm_not_libheif;\n".utf8).write(to: source)
        let built = try Command.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", stub.appendingPathComponent("libheif.so.1").path,
                                                    source.path])
        XCTAssertEqual(built.status, 0, built.stderr)
        let photomirror = Photomirror(environment: ["LD_LIBRARY_PATH": stub.path])
        let photo = try XCTUnwrap(try Paths.photos(count: 1).first)
        let thumb = try photomirror.run(["thumb", "--format", "avif", "-o", folder.appendingPathComponent("out").path, photo.path])
        XCTAssertEqual(thumb.status, 2, thumb.stderr)
        XCTAssertTrue(thumb.stderr.contains("--format avif: this machine cannot write it: AVIF encode: this libheif has no heif_"),
                      thumb.stderr)
        XCTAssertEqual(try photomirror.run(["thumb", "--format", "webp", "-o", folder.appendingPathComponent("out").path,
                                            photo.path]).status, 0, "the other formats still work")
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data(#"{"format": "avif"}"#.utf8).write(to: cache.appendingPathComponent("config.json"))
        let sync = try photomirror.run(["sync", "--cache", cache.path, "file:///nowhere/feed.xml"])
        XCTAssertEqual(sync.status, 2, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("config.json: format avif: this machine cannot write it"), sync.stderr)
    }

    private func manifestPath(_ cache: URL, _ feed: String) throws -> String {
        let key = try CacheDisk.sha256Hex(Data(feed.utf8)).prefix(16)
        return "feeds/\(key)/manifest.json"
    }
}

extension ThumbnailFile {
    init(format: String, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}
