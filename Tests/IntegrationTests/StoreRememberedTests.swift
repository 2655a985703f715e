import Foundation
import PMLoading
import PMObjectStore
import XCTest

/// The cache remembers its store (issue 23): the first `sync --store` records it, every later
/// command uses it, a different one is refused, and no command judges the index's rows from a
/// place where their files are not.
final class StoreRememberedTests: ObjectStoreTestCase {
    private func url(_ prefix: String) -> String { "s3://\(bucket)/\(prefix)" }

    /// A feed of three photos on a local server, and a fresh cache folder.
    private func feed() throws -> (server: FixtureServer, feed: String, cache: String) {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        let base = "http://127.0.0.1:\(server.port)"
        let items = site.photoNames.map { name in
            "<item><title>\(name)</title><guid>\(name)</guid><enclosure url=\"\(base)/photos/\(name)\" type=\"image/jpeg\"/></item>"
        }.joined(separator: "\n")
        let rss = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Remembered</title><link>\(base)/</link>\n\(items)\n</channel></rss>"
        try Data(rss.utf8).write(to: site.root.appendingPathComponent("feed.xml"))
        return (server, server.url("feed.xml"), try Paths.temporaryFolder().appendingPathComponent("cache").path)
    }

    private func keys(_ prefix: String) async throws -> Set<String> {
        Set(try await client.listObjects(bucket: bucket, prefix: prefix + "/").map { String($0.key.dropFirst(prefix.count + 1)) })
    }

    /// `stats --json`'s disk use of originals: what the store it measured holds.
    private func storedOriginalBytes(_ cache: String) throws -> Int {
        let stats = try photomirror.run(["stats", "--json", "--cache", cache])
        let report = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        return (report?["disk"] as? [String: Any])?["originals"] as? Int ?? -1
    }

    /// `stats --json`'s row counts: what the index knows.
    private func rows(_ cache: String, _ extra: [String] = []) throws -> [String: Int] {
        let stats = try photomirror.run(["stats", "--json", "--cache", cache] + extra)
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], stats.stdout)
        let ok = (report["items_by_status"] as? [String: Int])?["ok"] ?? -1
        let originals = (report["originals"] as? [String: Any])?["count"] as? Int ?? -1
        let thumbnails = (report["thumbnails"] as? [String: Any])?["count"] as? Int ?? -1
        return ["ok": ok, "originals": originals, "thumbnails": thumbnails]
    }

    private func recordedStore(_ cache: String) throws -> String? {
        let data = try Data(contentsOf: URL(fileURLWithPath: cache).appendingPathComponent("config.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["store"] as? String
    }

    func testCommandsWithoutStoreUseTheRecordedBucketAndDropNoRow() async throws {
        let (server, feed, cache) = try feed()
        defer { server.stop() }
        let site = url("site")
        let sync = try photomirror.run(["sync", "--cache", cache, "--store", site, feed])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(try recordedStore(cache), site)
        let stored = try await keys("site")
        XCTAssertEqual(stored.filter { $0.hasPrefix("originals/") }.count, 3, "\(stored)")

        let before = try rows(cache)
        XCTAssertEqual(before["ok"], 3)
        XCTAssertEqual(before["originals"], 3)
        XCTAssertGreaterThan(try storedOriginalBytes(cache), 0, "stats did not measure the bucket's originals")

        let verify = try photomirror.run(["verify", "--cache", cache])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
        let repair = try photomirror.run(["verify", "--repair", "--cache", cache])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        XCTAssertFalse(repair.stderr.contains("still damaged"), repair.stderr)
        XCTAssertEqual(try rows(cache), before, "verify --repair without --store dropped rows")
        let prune = try photomirror.run(["prune", "--cache", cache, "--max", "1GB"])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertEqual(try rows(cache), before, "prune without --store dropped rows")
        let afterPrune = try await keys("site")
        XCTAssertEqual(afterPrune, stored, "prune without --store changed the bucket")
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, feed]).status, 0)
        XCTAssertEqual(try rows(cache), before)

        // Another store is refused by every command, naming both; nothing changes.
        let other = url("elsewhere")
        for command in [["sync", feed], ["watch", "--every", "1h", feed], ["verify"], ["verify", "--repair"], ["stats"],
                        ["prune", "--max", "1GB"]] {
            let refused = try runEnding(command + ["--cache", cache, "--store", other])
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(site) && refused.stderr.contains(other), "\(command): \(refused.stderr)")
        }
        XCTAssertEqual(try recordedStore(cache), site)
        XCTAssertEqual(try rows(cache), before)
        let elsewhere = try await keys("elsewhere")
        XCTAssertEqual(elsewhere, [])
        // The same store spelled with a trailing slash is the same store.
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache, "--store", site + "/"]).status, 0)
    }

    func testMoveStoreCopiesTheCacheAndRecordsTheNewStore() async throws {
        let (server, feed, cache) = try feed()
        defer { server.stop() }
        // Keys of config.json other than the store survive its recording.
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try Data("{\"max_size\": \"1GB\"}".utf8).write(to: URL(fileURLWithPath: cache).appendingPathComponent("config.json"))
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, "--store", url("old"), feed]).status, 0)
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache).appendingPathComponent("config.json")))
        XCTAssertEqual((config as? [String: Any])?["max_size"] as? String, "1GB")
        let before = try rows(cache)

        let moved = try photomirror.run(["sync", "--move-store", "--cache", cache, "--store", url("new"), feed])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(moved.stderr.contains("moved the cache from \(url("old")) to \(url("new"))"), moved.stderr)
        XCTAssertEqual(try recordedStore(cache), url("new"))
        let old = try await keys("old"), new = try await keys("new")
        XCTAssertEqual(new.filter { $0.hasPrefix("originals/") || $0.hasPrefix("thumbs/") },
                       old.filter { $0.hasPrefix("originals/") || $0.hasPrefix("thumbs/") })
        XCTAssertTrue(new.contains("index.html"), "\(new)")
        XCTAssertEqual(try rows(cache), before)
        let verify = try photomirror.run(["verify", "--deep", "--cache", cache])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache, "--store", url("old")]).status, 2)
    }

    func testAFolderCacheRefusesAStoreUntilMoved() async throws {
        let (server, feed, cache) = try feed()
        defer { server.stop() }
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, feed]).status, 0)
        let before = try rows(cache)
        for command in [["sync", feed], ["verify", "--repair"], ["prune", "--max", "1GB"]] {
            let refused = try photomirror.run(command + ["--cache", cache, "--store", url("site")])
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(cache) && refused.stderr.contains(url("site")), refused.stderr)
        }
        XCTAssertEqual(try rows(cache), before, "a store that never held the files lost the index's rows")

        let moved = try photomirror.run(["sync", "--move-store", "--cache", cache, "--store", url("site"), feed])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(try recordedStore(cache), url("site"))
        let copied = try await keys("site")
        XCTAssertEqual(copied.filter { $0.hasPrefix("originals/") }.count, 3)
        let verify = try photomirror.run(["verify", "--cache", cache])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(try rows(cache), before)
    }

    /// A cache synced with --store before stores were recorded: config.json has no store and the
    /// folder holds only the index. Nothing judges its rows from the folder.
    func testABucketCacheWithoutARecordedStoreIsNotRepairedFromTheFolder() async throws {
        let (server, feed, cache) = try feed()
        defer { server.stop() }
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, "--store", url("site"), feed]).status, 0)
        try? FileManager.default.removeItem(atPath: cache + "/config.json")
        let before = try rows(cache, ["--store", url("site")])
        for command in [["verify"], ["verify", "--repair"], ["prune", "--max", "1GB"], ["stats"]] {
            let refused = try photomirror.run(command + ["--cache", cache])
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("--store"), refused.stderr)
        }
        XCTAssertEqual(try rows(cache, ["--store", url("site")]), before, "rows were dropped on the folder's evidence")
        XCTAssertEqual(before["ok"], 3)
        // Naming the bucket adopts it: a sync records it.
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache, "--store", url("site")]).status, 0)
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, "--store", url("site"), feed]).status, 0)
        XCTAssertEqual(try recordedStore(cache), url("site"))
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache]).status, 0)
    }

    /// Runs a command that should end at once (a refusal) but would run on if it were accepted
    /// (watch, serve): stopped by SIGTERM after a timeout that only catches that case.
    private func runEnding(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let output = try Paths.temporaryFolder().appendingPathComponent("output.log")
        let process = try photomirror.start(arguments, output: output)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// serve shows a cache folder; the folder of a bucket-backed cache holds only the index.
    func testServeRefusesACacheWhoseFilesAreInABucket() throws {
        let (server, feed, cache) = try feed()
        defer { server.stop() }
        XCTAssertEqual(try photomirror.run(["sync", "--cache", cache, "--store", url("site"), feed]).status, 0)
        let serve = try runEnding(["serve", "--cache", cache, "--port", "0"])
        XCTAssertEqual(serve.status, 4, serve.stderr)
        XCTAssertTrue(serve.stderr.contains(url("site")), serve.stderr)
    }

    /// --store in the USAGE line, --help and the man page of every command that takes it.
    func testEveryCommandThatTakesStoreShowsIt() throws {
        let pm = Photomirror()
        let man = try pm.run(["generate", "man"]).stdout
        for command in ["sync", "watch", "verify", "prune", "stats"] {
            let help = try pm.run([command, "--help"])
            let usage = help.stdout.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertTrue(usage.contains("--store"), "\(command)'s USAGE line: \(usage)")
            XCTAssertTrue(help.stdout.contains("--store s3://BUCKET[/PREFIX]"), "\(command) --help")
            let main = try pm.run(["help"]).stdout
            XCTAssertTrue(main.split(separator: "\n").contains { $0.contains("photomirror \(command) ") && $0.contains("--store") },
                          "\(command) in photomirror help")
            XCTAssertTrue(man.contains("photomirror \(command)"), "man lacks \(command)")
        }
        XCTAssertTrue(try pm.run(["sync", "--help"]).stdout.contains("--move-store"))
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("`--store s3://BUCKET[/PREFIX]` on `sync`, `watch`, `verify`, `prune` and `stats`"),
                      "the README names every command that takes --store")
        XCTAssertTrue(readme.contains("--move-store"))
    }
}
