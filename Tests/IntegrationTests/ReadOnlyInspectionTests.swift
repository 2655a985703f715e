import Foundation
import XCTest

/// `stats`, `verify`, `prune --dry-run`, `feed` and `serve` on a cache the user cannot write: a
/// root-owned cache looked at by another uid (a systemd `DynamicUser` cache), and a cache on a
/// read-only mount that even root cannot write. They answer as on a writable cache, write
/// nothing, and say once on stderr when the index was read as a snapshot.
final class ReadOnlyInspectionTests: XCTestCase {
    private static let otherUser = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    override func setUpWithError() throws {
        guard geteuid() == 0 else {
            throw XCTSkip("runs the binary as another uid (setpriv) and mounts a folder read-only: needs root")
        }
        guard Command.find("setpriv") != nil else { throw XCTSkip("needs util-linux's setpriv") }
    }

    func testAnotherUidInspectsARootOwnedCache() throws {
        let synced = try SyncedCache(photos: 2, scales: "1")
        try Self.makeRootOwned(synced.root)
        let inspector = Inspector(launcher: ["/usr/bin/env", "setpriv"] + Self.otherUser)
        try checkInspection(of: synced.root, synced: synced, inspector: inspector)
        try checkDamageIsStillReported(at: synced.root, writableRoot: synced.root, synced: synced, inspector: inspector)
    }

    func testRootInspectsACacheOnAReadOnlyMount() throws {
        let synced = try SyncedCache(photos: 2, scales: "1")
        let mountPoint = try Paths.temporaryFolder().appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard try Photomirror.shell("mount", "--bind", synced.root.path, mountPoint.path) == 0 else {
            throw XCTSkip("cannot bind-mount here")
        }
        addTeardownBlock { _ = try? Photomirror.shell("umount", "-l", mountPoint.path) }
        XCTAssertEqual(try Photomirror.shell("mount", "-o", "remount,ro,bind", mountPoint.path), 0)
        XCTAssertEqual(access(mountPoint.path, W_OK), -1, "root cannot write a read-only mount")
        let inspector = Inspector(launcher: [])
        try checkInspection(of: mountPoint, synced: synced, inspector: inspector)
        try checkDamageIsStillReported(at: mountPoint, writableRoot: synced.root, synced: synced, inspector: inspector)
    }

    /// A writer's commits still in the `-wal` (a live connection keeps the log from being
    /// checkpointed away) are seen by another uid's `stats`: the index is read through the WAL,
    /// not as a snapshot of the main file.
    func testAnotherUidSeesALiveWritersCommits() throws {
        let photos = try Paths.photos(count: 2)
        let site = try FeedSite(photos: photos)
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "first.js", base: base, names: [site.photoNames[0]])
        try site.writeFlickrFeed(at: "second.js", base: base, names: [site.photoNames[1]])
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        XCTAssertEqual(try Photomirror().run(["sync", "--cache", cache.path, "--scales", "1", server.url("first.js")]).status, 0)
        let holder = try BackgroundServer(["python3", "-c", Self.readerHoldingTheWAL, cache.appendingPathComponent("index.sqlite").path])
        try holder.wait { holder.stdout.contains("holding") }
        let second = try Photomirror().run(["sync", "--cache", cache.path, "--scales", "1", server.url("second.js")])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.path + "/index.sqlite-wal"), "the second sync's commits are in the WAL")
        try Self.makeRootOwned(cache)

        let stats = try Inspector(launcher: ["/usr/bin/env", "setpriv"] + Self.otherUser).run(["stats", "--json", "--cache", cache.path])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], stats.stdout)
        XCTAssertEqual(json["feeds"] as? Int, 2, "the live writer's second feed is seen: \(stats.stdout)")
        XCTAssertFalse(stats.stderr.contains("snapshot"), "read through the WAL, not as a snapshot: \(stats.stderr)")
        holder.stop()
    }

    /// Holds a read transaction open on the index until SIGTERM: the log cannot be
    /// checkpointed past it, so a writer's later commits stay in the `-wal`.
    private static let readerHoldingTheWAL = """
        import signal, sqlite3, sys
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("BEGIN")
        db.execute("SELECT count(*) FROM meta").fetchall()
        print("holding", flush=True)
        signal.pause()
        """

    private func checkInspection(of root: URL, synced: SyncedCache, inspector: Inspector) throws {
        let before = try Self.listing(root)
        let cacheArguments = ["--cache", root.path]

        let text = try inspector.run(["stats"] + cacheArguments)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("originals    \(synced.photoCount),"), text.stdout)
        let notes = text.stderr.split(separator: "\n").filter { $0.contains("may lag a running writer") }
        XCTAssertEqual(notes.count, 1, "one line says the index was read as a snapshot: \(text.stderr)")

        let json = try inspector.run(["stats", "--json"] + cacheArguments)
        XCTAssertEqual(json.status, 0, json.stderr)
        // Not thrown on: each command's own failure is worth seeing.
        let stats = (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) as? [String: Any]
        XCTAssertEqual((stats?["originals"] as? [String: Any])?["count"] as? Int, synced.photoCount, json.stdout)
        XCTAssertTrue(json.stderr.contains("may lag a running writer"), "the note goes to stderr: \(json.stderr)")

        let verify = try inspector.run(["verify"] + cacheArguments)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stderr.contains("verify ok"), verify.stderr)

        let limit = try CacheDisk.allocatedBytes(root) / 2
        let prune = try inspector.run(["prune", "--dry-run", "--max", String(limit)] + cacheArguments)
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertTrue(prune.stderr.contains("(dry run)") && prune.stderr.contains("would evict"), prune.stderr)

        let feedFile = try feedJSON(in: root)
        let feed = try inspector.run(["feed", feedFile.path])
        XCTAssertEqual(feed.status, 0, feed.stderr)
        XCTAssertTrue(feed.stdout.hasPrefix("jsonFeed "), feed.stdout)

        let files = try synced.firstItemFiles()
        let serve = try ServeProcess(cache: root, launcher: inspector.launcher)
        XCTAssertEqual(try RawHTTP.request(port: serve.port, "GET", "/").status, 200)
        let thumbnail = try RawHTTP.request(port: serve.port, "GET", "/" + files.thumbnail)
        XCTAssertEqual(thumbnail.status, 200)
        XCTAssertEqual(thumbnail.body, Array(try Data(contentsOf: root.appendingPathComponent(files.thumbnail))))
        XCTAssertEqual(serve.stop(), 0, serve.server.stderr)
        XCTAssertTrue(serve.server.stderr.contains("not counting served images"), serve.server.stderr)

        XCTAssertEqual(try Self.listing(root), before, "nothing was written in the cache folder")
    }

    /// A thumbnail damaged behind the cache's back is still found, with exit 1.
    private func checkDamageIsStillReported(at root: URL, writableRoot: URL, synced: SyncedCache,
                                            inspector: Inspector) throws {
        let thumbnail = try synced.firstItemFiles().thumbnail
        try Data("not a png".utf8).write(to: writableRoot.appendingPathComponent(thumbnail))
        let verify = try inspector.run(["verify", "--cache", root.path])
        XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stderr.contains("damage: ") && verify.stderr.contains(thumbnail), verify.stderr)
    }

    private func feedJSON(in root: URL) throws -> URL {
        let feeds = root.appendingPathComponent("feeds")
        for folder in try FileManager.default.contentsOfDirectory(atPath: feeds.path).sorted() {
            let file = feeds.appendingPathComponent(folder).appendingPathComponent("feed.json")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        throw ServerError(description: "no feed.json under \(feeds.path)")
    }

    /// Folders 0755 and files 0644, root's: what a service leaves for others to read.
    private static func makeRootOwned(_ root: URL) throws {
        let files = FileManager.default
        var paths = [root.path]
        if let walker = files.enumerator(atPath: root.path) {
            while let relative = walker.nextObject() as? String { paths.append(root.appendingPathComponent(relative).path) }
        }
        for path in paths {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            XCTAssertEqual(chown(path, 0, 0), 0, path)
            XCTAssertEqual(chmod(path, isFolder.boolValue ? 0o755 : 0o644), 0, path)
        }
    }

    /// Every path in the folder with its size and modification time.
    private static func listing(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let relative = walker?.nextObject() as? String {
            var status = stat()
            guard lstat(root.appendingPathComponent(relative).path, &status) == 0 else { continue }
            result[relative] = "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        }
        return result
    }
}

/// Runs the real binary through `launcher` (setpriv, to run it as another user), or directly.
private struct Inspector {
    let launcher: [String]

    func run(_ arguments: [String]) throws -> Photomirror.Result {
        guard let program = launcher.first else { return try Photomirror().run(arguments) }
        return try Command.run(program, Array(launcher.dropFirst()) + [Paths.binary.path] + arguments,
                               environment: ["NO_COLOR": "1"])
    }
}
