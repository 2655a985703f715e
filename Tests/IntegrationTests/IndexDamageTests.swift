import Foundation
import XCTest

/// A damaged or lost index is found by `verify`, named to every other command, and rebuilt by
/// `verify --repair` from the manifests and the content files, so that the next sync downloads
/// nothing and completes every item.
final class IndexDamageTests: XCTestCase {
    /// Twelve real photos in two feeds that share four, thumbnails at two sizes, on 127.0.0.1.
    struct Mirror {
        let server: FixtureServer
        let cache: URL
        let feeds: [String]
        let photomirror = Photomirror()

        static func make() throws -> Mirror {
            let site = try FeedSite(photos: try Paths.photos(count: 12))
            let server = try FixtureServer(root: site.root)
            let base = "http://127.0.0.1:\(server.port)"
            try site.writeFlickrFeed(at: "first.js", base: base, names: Array(site.photoNames[0..<8]))
            try site.writeFlickrFeed(at: "second.js", base: base, names: Array(site.photoNames[4..<12]))
            let mirror = Mirror(server: server, cache: try Paths.temporaryFolder().appendingPathComponent("cache"),
                                feeds: [server.url("first.js"), server.url("second.js")])
            let sync = try mirror.sync()
            guard sync.status == 0 else { throw ServerError(description: "the first sync failed: \(sync.stderr)") }
            return mirror
        }

        func sync() throws -> Photomirror.Result {
            try photomirror.run(["sync", "--quiet", "--cache", cache.path, "--scales", "1,2"] + feeds)
        }

        func run(_ arguments: [String]) throws -> Photomirror.Result {
            try photomirror.run(arguments + ["--cache", cache.path])
        }

        var index: URL { cache.appendingPathComponent("index.sqlite") }

        /// What `stats` counts that a rebuild must give back (not times, not disk use).
        func counts() throws -> [String: String] {
            let stats = try CacheDisk.json(try run(["stats", "--json"]).stdout)
            return try ["feeds", "items", "items_by_status", "media_urls", "originals", "thumbnails"].reduce(into: [:]) {
                let value = try JSONSerialization.data(withJSONObject: stats[$1] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
                $0[$1] = String(decoding: value, as: UTF8.self)
            }
        }

        /// The damaged index files kept aside, their logs (`-wal`, `-shm`) beside them.
        var damagedCopies: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter {
                $0.hasPrefix("index.sqlite.damaged-")
            }.sorted()
        }
    }

    static let advice = "the index is damaged; run `photomirror verify --repair`"

    func testAFewOverwrittenPagesAreFoundAndTheIndexRebuilt() throws {
        let mirror = try Mirror.make()
        let counts = try mirror.counts()
        let pages = try IndexPages.overwrite(mirror.index, count: 3, header: false)
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 1, "pages \(pages):\n\(verify.stderr)")
        XCTAssertTrue(verify.stderr.contains("damage: index.sqlite: damaged ("), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("run `photomirror verify --repair`"), verify.stderr)
        try assertRebuilt(mirror, counts: counts, keepsTheDamagedFile: true, context: "pages \(pages)")
    }

    func testAnIndexOverwrittenHeaderAndAllIsNamedByEveryCommandAndRebuilt() throws {
        let mirror = try Mirror.make()
        let counts = try mirror.counts()
        let thumbnail = try XCTUnwrap(CacheDisk.files(in: mirror.cache, under: "thumbs").first)
        let pages = try IndexPages.overwrite(mirror.index, count: 12, header: true)
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("damage: index.sqlite: damaged (file is not a database)"), verify.stderr)
        for command in [["sync", "--quiet", "--scales", "1,2"] + mirror.feeds, ["stats"], ["prune", "--max", "1MB"],
                        ["prune", "--max", "1MB", "--dry-run"]] {
            let result = try mirror.run(command)
            XCTAssertEqual(result.status, 4, "\(command[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(mirror.index.path): \(Self.advice) (file is not a database"),
                          "\(command[0]), pages \(pages): \(result.stderr)")
        }
        // serve hands the cache out as ever, and says once why it does not count.
        let serve = try ServeProcess(cache: mirror.cache)
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/" + thumbnail).status, 200)
        XCTAssertEqual(serve.stop(), 0, serve.server.stderr)
        XCTAssertTrue(serve.server.stderr.contains("not counting served images as used for prune: \(mirror.index.path): \(Self.advice)"),
                      serve.server.stderr)
        try assertRebuilt(mirror, counts: counts, keepsTheDamagedFile: true, context: "pages \(pages)")
    }

    func testADeletedIndexIsACacheToRepairNotAnEmptyFolder() throws {
        let mirror = try Mirror.make()
        let counts = try mirror.counts()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: mirror.index.path + suffix) }
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("damage: index.sqlite: missing, though the cache's files are here"), verify.stderr)
        XCTAssertTrue(verify.stderr.contains("run `photomirror verify --repair`"), verify.stderr)
        for command in [["sync", "--quiet"] + mirror.feeds, ["stats"], ["prune", "--max", "1MB"]] {
            let result = try mirror.run(command)
            XCTAssertEqual(result.status, 4, "\(command[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(mirror.index.path) is missing, but the folder holds a cache's files; "
                + "run `photomirror verify --repair`"), "\(command[0]): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mirror.index.path), "no command made an empty index")
        try assertRebuilt(mirror, counts: counts, keepsTheDamagedFile: false, context: "deleted")
    }

    /// An index emptied to 0 bytes (which SQLite would open as a new, empty database) beside the
    /// cache's files is damage: no command starts the cache over, and the rebuild brings it back.
    func testAnEmptyIndexFileIsDamageNotANewCache() throws {
        let mirror = try Mirror.make()
        let counts = try mirror.counts()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: mirror.index.path + suffix) }
        try Data().write(to: mirror.index)
        let reason = "file is empty (0 bytes), not a database"
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("damage: index.sqlite: damaged (\(reason))"), verify.stderr)
        for command in [["sync", "--quiet", "--scales", "1,2"] + mirror.feeds, ["stats"], ["prune", "--max", "1MB"],
                        ["prune", "--max", "1MB", "--dry-run"]] {
            let result = try mirror.run(command)
            XCTAssertEqual(result.status, 4, "\(command[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(mirror.index.path): \(Self.advice) (\(reason)"),
                          "\(command[0]): \(result.stderr)")
        }
        let size = try FileManager.default.attributesOfItem(atPath: mirror.index.path)[.size] as? Int
        XCTAssertEqual(size, 0, "no command wrote a schema over it")
        try assertRebuilt(mirror, counts: counts, keepsTheDamagedFile: true, context: "emptied")
    }

    /// A first sync killed after `journal_mode=WAL` wrote the new index's header and before its
    /// tables' transaction committed leaves a valid SQLite file with no table: beside the cache's
    /// files it is damage, rebuilt as any other.
    func testAnIndexWithAHeaderAndNoTableBesideTheCachesFilesIsDamage() throws {
        let mirror = try Mirror.make()
        let counts = try mirror.counts()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: mirror.index.path + suffix) }
        try FileManager.default.removeItem(at: mirror.index)
        try Self.writeHeaderOnlyIndex(at: mirror.index)
        let reason = "holds no table: its header was written, its schema never committed"
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("damage: index.sqlite: damaged (\(reason))"), verify.stderr)
        let stats = try mirror.run(["stats"])
        XCTAssertEqual(stats.status, 4, stats.stderr)
        XCTAssertTrue(stats.stderr.contains("\(mirror.index.path): \(Self.advice) (\(reason)"), stats.stderr)
        try assertRebuilt(mirror, counts: counts, keepsTheDamagedFile: true, context: "header only")
    }

    /// The same file alone in its folder: an empty cache, which verifies, and which the next sync
    /// starts (not "no such table").
    func testAnIndexWithAHeaderAndNoTableAloneIsANewCache() throws {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Self.writeHeaderOnlyIndex(at: cache.appendingPathComponent("index.sqlite"))
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let sync = try Photomirror().run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let after = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage, 0 stale"), after.stderr)
    }

    /// What SQLite leaves of a new index once `PRAGMA journal_mode=WAL` ran and nothing else did:
    /// Python's sqlite3 module, so the file is SQLite's own and not one the binary made.
    static func writeHeaderOnlyIndex(at url: URL) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA auto_vacuum=INCREMENTAL")
            c.execute("PRAGMA journal_mode=WAL"); c.close()
            """, url.path]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        XCTAssertEqual(size, 4096, "one page: the header")
    }

    /// An empty index alone in its folder is a first sync stopped between creating the file and
    /// writing its header: nothing to rebuild, and the next sync starts the cache.
    func testAnEmptyIndexWithoutTheCachesFilesIsANewCache() throws {
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data().write(to: cache.appendingPathComponent("index.sqlite"))
        let verify = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let sync = try Photomirror().run(["sync", "--quiet", "--cache", cache.path, server.url("feed.js")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let after = try Photomirror().run(["verify", "--cache", cache.path])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("0 damaged, 0 garbage, 0 stale"), after.stderr)
    }

    /// `verify --repair` rebuilds; the next sync asks for no image and completes every item; the
    /// cache verifies clean and counts as before; the next repair drops the damaged copy.
    func assertRebuilt(_ mirror: Mirror, counts: [String: String], keepsTheDamagedFile: Bool, context: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let repair = try mirror.run(["verify", "--repair"])
        XCTAssertEqual(repair.status, 0, "\(context): \(repair.stderr)", file: file, line: line)
        XCTAssertTrue(repair.stderr.contains("repair: rebuilt the index from 2 manifests (16 items, 12 media URLs) "
            + "and 12 originals and 24 thumbnails"), "\(context): \(repair.stderr)", file: file, line: line)
        let kept = mirror.damagedCopies.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        XCTAssertEqual(kept.count, keepsTheDamagedFile ? 1 : 0, "\(mirror.damagedCopies)", file: file, line: line)
        XCTAssertTrue(repair.stderr.contains(kept.first.map { "the damaged index is kept as \($0)" } ?? "repair:"), repair.stderr,
                      file: file, line: line)
        XCTAssertEqual(try mirror.counts(), counts, context, file: file, line: line)

        mirror.server.clearLog()
        let sync = try mirror.sync()
        XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)", file: file, line: line)
        XCTAssertEqual(mirror.server.requests.filter { $0.hasPrefix("GET /photos/") }, [], context, file: file, line: line)
        XCTAssertEqual(mirror.server.requests.count, 2, "the two feeds only: \(mirror.server.requests)", file: file, line: line)
        for feed in mirror.feeds {
            let items = try CacheDisk.itemsByPhoto(mirror.cache, feedURL: feed)
            XCTAssertEqual(items.count, 8, file: file, line: line)
            XCTAssertEqual(Set(items.values.map { $0["status"] as? String }), ["ok"], "\(context): \(feed)", file: file, line: line)
        }
        XCTAssertEqual(try mirror.counts(), counts, context, file: file, line: line)
        let verify = try mirror.run(["verify"])
        XCTAssertEqual(verify.status, 0, "\(context): \(verify.stderr)", file: file, line: line)
        XCTAssertTrue(verify.stderr.contains("0 damaged, 0 garbage, 0 stale"), verify.stderr, file: file, line: line)
        XCTAssertEqual(try CacheDisk.brokenReferences(mirror.cache), [], file: file, line: line)

        let again = try mirror.run(["verify", "--repair"])
        XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
        XCTAssertTrue(again.stderr.contains("repair: nothing to repair"), again.stderr, file: file, line: line)
        XCTAssertEqual(mirror.damagedCopies, [], "kept until the next successful repair", file: file, line: line)
    }
}
