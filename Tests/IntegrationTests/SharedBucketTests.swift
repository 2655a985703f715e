import Foundation
import PMLoading
import PMObjectStore
import PMSupport
import XCTest

/// Several writers on one bucket (issue 22, items 1–3), against the real object store: garbage is
/// collected only past its grace period and while no other writer is live, a writer's limit
/// covers what it owns, and a sync holds its index to the bucket's listing.
final class SharedBucketTests: ObjectStoreTestCase {
    private let prefix = "site"
    private var storeURL: String { "s3://\(bucket)/\(prefix)" }

    private func keys() async throws -> Set<String> {
        Set(try await client.listObjects(bucket: bucket, prefix: prefix + "/").map { String($0.key.dropFirst(prefix.count + 1)) })
    }

    private func put(_ path: String, _ text: String) async throws {
        try await client.putObject(bucket: bucket, key: "\(prefix)/\(path)", bytes: Array(text.utf8),
                                   contentType: "application/json", cacheControl: "no-cache")
    }

    /// Every content path the manifests in the bucket name.
    private func manifestPaths() async throws -> Set<String> {
        var paths = Set<String>()
        for key in try await keys() where key.hasPrefix("feeds/") && key.hasSuffix("/manifest.json") {
            guard let object = try await client.getObject(bucket: bucket, key: "\(prefix)/\(key)"),
                  let manifest = try JSONSerialization.jsonObject(with: Data(object.bytes)) as? [String: Any],
                  let items = manifest["items"] as? [[String: Any]] else { continue }
            for item in items {
                for case let path as String in [item["original"], item["thumbnail"]] { paths.insert(path) }
            }
        }
        return paths
    }

    private func sync(_ cache: URL, _ feed: String, _ extra: [String] = []) throws -> Photomirror.Result {
        try photomirror.run(["sync", "--cache", cache.path, "--store", storeURL] + extra + [feed])
    }

    private func verifyDeep(_ cache: URL) throws -> Photomirror.Result {
        try photomirror.run(["verify", "--deep", "--cache", cache.path, "--store", storeURL])
    }

    /// Item 1: writer A prunes in a loop with a limit it can never reach while writer B syncs a
    /// slow feed into the same bucket. B's uploads are garbage to A until B publishes its
    /// manifest; none may go.
    func testAPruneWhileAnotherWriterSyncsDeletesNoneOfItsUploads() async throws {
        let photos = try Paths.photos(count: 8)
        let site = try FeedSite(photos: photos)
        let slow = try FixtureServer(root: site.root, arguments: ["--delay", "0.25"])
        defer { slow.stop() }
        let base = "http://127.0.0.1:\(slow.port)"
        try site.writeFlickrFeed(at: "a.js", base: base, names: Array(site.photoNames[0...1]))
        try site.writeFlickrFeed(at: "b.js", base: base, names: Array(site.photoNames[2...7]))
        let folder = try Paths.temporaryFolder()
        let writerA = folder.appendingPathComponent("a"), writerB = folder.appendingPathComponent("b")
        let first = try sync(writerA, slow.url("a.js"))
        XCTAssertEqual(first.status, 0, first.stderr)

        let syncB = try photomirror.start(["sync", "--jobs", "1", "--cache", writerB.path, "--store", storeURL, slow.url("b.js")],
                                          output: folder.appendingPathComponent("b.log"))
        var prunes = 0
        var kept = false
        while syncB.isRunning {
            let prune = try photomirror.run(["prune", "--cache", writerA.path, "--store", storeURL, "--max", "1B"])
            XCTAssertTrue([0, 1].contains(prune.status), prune.stderr)
            kept = kept || prune.stderr.contains("unreferenced files") || prune.stderr.contains("while another writer is live")
            prunes += 1
        }
        syncB.waitUntilExit()
        let logB = (try? String(contentsOf: folder.appendingPathComponent("b.log"), encoding: .utf8)) ?? ""
        XCTAssertEqual(syncB.terminationStatus, 0, logB)
        XCTAssertGreaterThan(prunes, 1, "writer A pruned only once while B synced")
        XCTAssertTrue(kept, "no prune said it spared another writer's files")
        let verify = try verifyDeep(writerB)
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
        let stored = try await keys()
        let missing = try await manifestPaths().subtracting(stored)
        XCTAssertTrue(missing.isEmpty, "manifests name deleted objects: \(missing.sorted())")
    }

    /// Item 1: an unreferenced object goes only once older than the grace period, and not while
    /// another writer's heartbeat is live; a stale heartbeat (a killed writer's) holds nothing.
    func testGarbageGoesOnlyPastItsGraceAndWhileNoOtherWriterIsLive() async throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        XCTAssertEqual(try sync(cache, server.url("feed.js")).status, 0)
        let orphan = "originals/ab/ab\(String(repeating: "0", count: 62)).jpg"
        try await client.putObject(bucket: bucket, key: "\(prefix)/\(orphan)", bytes: Array("not referenced".utf8),
                                   contentType: "image/jpeg", cacheControl: "no-cache")
        let prune = ["prune", "--cache", cache.path, "--store", storeURL, "--max", "1GB"]

        let young = try photomirror.run(prune)
        XCTAssertEqual(young.status, 0, young.stderr)
        var stored = try await keys()
        XCTAssertTrue(stored.contains(orphan), "a fresh object went before its grace period: \(young.stderr)")
        XCTAssertTrue(young.stderr.contains("kept 1 unreferenced files"), young.stderr)

        try await Task.sleep(for: .seconds(2.2))
        let now = Date().timeIntervalSince1970
        try await put("writers/other.json", #"{"id":"other","command":"sync","started":\#(now),"refreshed":\#(now)}"#)
        let live = try photomirror.run(prune + ["--garbage-grace", "1s"])
        XCTAssertEqual(live.status, 0, live.stderr)
        stored = try await keys()
        XCTAssertTrue(stored.contains(orphan), "garbage went while another writer was live: \(live.stderr)")

        try await put("writers/other.json", #"{"id":"other","command":"sync","started":\#(now - 7200),"refreshed":\#(now - 3600)}"#)
        let stale = try photomirror.run(prune + ["--garbage-grace", "1s"])
        XCTAssertEqual(stale.status, 0, stale.stderr)
        stored = try await keys()
        XCTAssertFalse(stored.contains(orphan), "garbage past its grace stayed: \(stale.stderr)")
        XCTAssertTrue(stale.stderr.contains("removed 1 garbage file;"), stale.stderr)
        XCTAssertFalse(stored.contains { $0.hasPrefix("writers/") }, "a stale or finished writer's heartbeat is left: \(stored)")
    }

    /// Item 2: a writer's limit covers what it owns, not the other writers' objects; stats says
    /// what it owns and what the others hold.
    func testAWritersLimitCoversWhatItOwns() async throws {
        let photos = try Paths.photos(count: 8)
        let site = try FeedSite(photos: photos)
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "a.js", base: base, names: Array(site.photoNames[0...1]))
        try site.writeFlickrFeed(at: "b.js", base: base, names: Array(site.photoNames[2...7]))
        let folder = try Paths.temporaryFolder()
        let writerA = folder.appendingPathComponent("a"), writerB = folder.appendingPathComponent("b")
        XCTAssertEqual(try sync(writerB, server.url("b.js")).status, 0)
        XCTAssertEqual(try sync(writerA, server.url("a.js")).status, 0)
        func bytes(_ range: ClosedRange<Int>) throws -> Int {
            try photos[range].reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int ?? 0) }
        }
        let own = try bytes(0...1), others = try bytes(2...7)
        XCTAssertGreaterThan(others, own + 400_000, "the fixture photos are too alike in size for this test")
        // Room for A's originals, thumbnails and pages, far less than the bucket holds.
        let limit = own + 400_000

        let prune = try photomirror.run(["prune", "--json", "--cache", writerA.path, "--store", storeURL, "--max", "\(limit)B"])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(prune.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["originals_evicted"] as? Int, 0, prune.stdout)
        XCTAssertEqual(report["reached_target"] as? Bool, true, prune.stdout)
        XCTAssertGreaterThanOrEqual(report["others_bytes"] as? Int ?? 0, others, prune.stdout)
        let originalsKept = try await keys().filter { $0.hasPrefix("originals/") }.count
        XCTAssertEqual(originalsKept, 8)

        let stats = try photomirror.run(["stats", "--json", "--cache", writerA.path, "--store", storeURL])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let shared = try XCTUnwrap(json["shared"] as? [String: Any], stats.stdout)
        let owned = shared["owned"] as? Int ?? 0
        XCTAssertTrue((own...limit).contains(owned), "owned \(owned) is not A's \(own)…\(limit): \(stats.stdout)")
        XCTAssertGreaterThanOrEqual(shared["others"] as? Int ?? 0, others, stats.stdout)
        let text = try photomirror.run(["stats", "--cache", writerA.path, "--store", storeURL])
        XCTAssertTrue(text.stdout.contains("this writer owns") && text.stdout.contains("other writers hold"), text.stdout)

        // A limit below what A owns evicts A's images only.
        let tight = try photomirror.run(["prune", "--cache", writerA.path, "--store", storeURL, "--max", "1B"])
        XCTAssertTrue([0, 1].contains(tight.status), tight.stderr)
        let originalsLeft = try await keys().filter { $0.hasPrefix("originals/") }.count
        XCTAssertEqual(originalsLeft, 6, tight.stderr)
        XCTAssertEqual(try verifyDeep(writerB).status, 0)
    }

    /// Item 3: objects deleted from the bucket behind the index are stored again by the next
    /// sync, not published as present; a feed that sync does not list shows them as evicted.
    func testASyncStoresAgainWhatTheBucketLost() async throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "feed.js", base: base, names: Array(site.photoNames[0...2]))
        try site.writeFlickrFeed(at: "other.js", base: base, names: [site.photoNames[3]])
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        XCTAssertEqual(try sync(cache, server.url("other.js")).status, 0)
        XCTAssertEqual(try sync(cache, server.url("feed.js")).status, 0)
        func content() async throws -> Set<String> {
            try await keys().filter { $0.hasPrefix("originals/") || $0.hasPrefix("thumbs/") }
        }
        let before = try await content()
        XCTAssertEqual(before.count, 8)
        _ = try await client.deleteObjects(bucket: bucket, keys: before.map { "\(prefix)/\($0)" })

        let again = try sync(cache, server.url("feed.js"))
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("3 downloaded"), again.stderr)
        let restored = try await content()
        XCTAssertEqual(restored.count, 6, "the sync did not store the lost objects again: \(again.stderr)")
        let partly = try verifyDeep(cache)
        XCTAssertEqual(partly.status, 0, "the other feed's pages still show what the bucket lost:\n\(partly.stderr)")

        XCTAssertEqual(try sync(cache, server.url("other.js")).status, 0)
        let whole = try await content()
        XCTAssertEqual(whole, before)
        let verify = try verifyDeep(cache)
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
    }

    /// Item 3: a bucket deleted under a cache is an error naming it (exit 4), not a new empty
    /// bucket; only a cache's first sync creates its bucket.
    func testASyncWhoseBucketWasDeletedSaysSo() async throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        XCTAssertEqual(try sync(cache, server.url("feed.js")).status, 0, "the first sync creates the bucket")
        let all = try await client.listObjects(bucket: bucket).map(\.key)
        _ = try await client.deleteObjects(bucket: bucket, keys: all)
        try await client.deleteBucket(bucket)

        let gone = try sync(cache, server.url("feed.js"))
        XCTAssertEqual(gone.status, 4, gone.stderr)
        XCTAssertTrue(gone.stderr.contains("\"\(bucket)\" does not exist"), gone.stderr)
        do {
            _ = try await client.listObjectsPage(bucket: bucket, maxKeys: 1)
            XCTFail("the sync created the deleted bucket again")
        } catch {
            XCTAssertEqual(error.code, "NoSuchBucket", "\(error)")
        }
    }

    /// The two-writer soak: each round, writer B syncs a slow feed that gained an image while
    /// writer A syncs a feed overlapping B's and prunes everything it can, with a grace period
    /// of 1 s, over and over until B is done. `verify --deep` from each writer is clean after
    /// every round. `PHOTOMIRROR_SOAK_ROUNDS` sets the number of rounds (default 10).
    func testTwoWritersSyncingAndPruningOneBucketStayClean() async throws {
        let rounds = ProcessInfo.processInfo.environment["PHOTOMIRROR_SOAK_ROUNDS"].flatMap(Int.init) ?? 10
        let photos = try Paths.photos(count: 12)
        let site = try FeedSite(photos: photos)
        let slow = try FixtureServer(root: site.root, arguments: ["--delay", "0.15"])
        defer { slow.stop() }
        // B's images come slower than A's: B's run is mostly waiting, which a loaded machine does
        // not shorten, while A's passes are mostly work, which it lengthens.
        let slower = try FixtureServer(root: site.root, arguments: ["--delay", "0.4"])
        defer { slower.stop() }
        let base = "http://127.0.0.1:\(slow.port)"
        let names = site.photoNames
        let folder = try Paths.temporaryFolder()
        let writerA = folder.appendingPathComponent("a"), writerB = folder.appendingPathComponent("b")
        var spared = 0
        // A has a cache of its own in the bucket before its first prune.
        try site.writeFlickrFeed(at: "a.js", base: base, names: Array(names.prefix(3)))
        XCTAssertTrue([0, 1].contains(try sync(writerA, slow.url("a.js")).status))
        for round in 1...rounds {
            // B's feed grows by one image a round; A's window slides over B's images.
            try site.writeFlickrFeed(at: "b.js", base: "http://127.0.0.1:\(slower.port)",
                                     names: Array(names.prefix(min(names.count, 2 + round))))
            try site.writeFlickrFeed(at: "a.js", base: base, names: (0..<3).map { names[(round * 2 + $0) % names.count] })
            let syncB = try photomirror.start(["sync", "--jobs", "1", "--cache", writerB.path, "--store", storeURL, slower.url("b.js")],
                                              output: folder.appendingPathComponent("b-\(round).log"))
            // A's first prune of the round starts once B has announced itself, so that it meets
            // B live however slowly the processes start.
            while syncB.isRunning, try await !keys().contains(where: { $0.hasPrefix("writers/") }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            var passes = 0
            repeat {
                let prune = try photomirror.run(["prune", "--cache", writerA.path, "--store", storeURL, "--max", "1B",
                                                 "--garbage-grace", "1s"])
                XCTAssertTrue([0, 1].contains(prune.status), "round \(round): \(prune.stderr)")
                if prune.stderr.contains("while another writer is live") || prune.stderr.contains("unreferenced files") { spared += 1 }
                let sync = try sync(writerA, slow.url("a.js"))
                XCTAssertTrue([0, 1].contains(sync.status), "round \(round): \(sync.stderr)")
                passes += 1
            } while syncB.isRunning
            syncB.waitUntilExit()
            let logB = (try? String(contentsOf: folder.appendingPathComponent("b-\(round).log"), encoding: .utf8)) ?? ""
            XCTAssertEqual(syncB.terminationStatus, 0, "round \(round): \(logB)")
            for (writer, cache) in [("A", writerA), ("B", writerB)] {
                let verify = try verifyDeep(cache)
                XCTAssertEqual(verify.status, 0, "round \(round), writer \(writer) after \(passes) passes of A:\n\(verify.stderr)")
                XCTAssertTrue(verify.stderr.contains("0 damaged"), "round \(round), writer \(writer):\n\(verify.stderr)")
            }
            let missing = try await manifestPaths().subtracting(try await keys())
            XCTAssertTrue(missing.isEmpty, "round \(round): manifests name deleted objects: \(missing.sorted())")
        }
        XCTAssertGreaterThan(spared, 0, "no prune of A ever met B live: the soak tested nothing")
    }
}
