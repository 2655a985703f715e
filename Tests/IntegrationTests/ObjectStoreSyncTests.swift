import Foundation
import PMLoading
import PMObjectStore
import PMSupport
import XCTest

/// `--store s3://…` against a real object store (OpenStack Swift's s3api on 127.0.0.1): the bucket
/// is the static site, the folder keeps only the index, and two writers share one bucket (issue 14).
final class ObjectStoreSyncTests: ObjectStoreTestCase {
    private let prefix = "site"
    private var storeURL: String { "s3://\(bucket)/\(prefix)" }

    private func writeRSS(_ site: FeedSite, at path: String, title: String, photos: [String], base: String) throws {
        let items = photos.map { name in
            "<item><title>\(name)</title><guid>\(path)-\(name)</guid><enclosure url=\"\(base)/photos/\(name)\" type=\"image/jpeg\"/></item>"
        }.joined(separator: "\n")
        let rss = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title><link>\(base)/</link>\n\(items)\n</channel></rss>"
        try Data(rss.utf8).write(to: site.root.appendingPathComponent(path))
    }

    private func keys() async throws -> Set<String> {
        Set(try await client.listObjects(bucket: bucket, prefix: prefix + "/").map { String($0.key.dropFirst(prefix.count + 1)) })
    }

    /// Through the store's public URL, with no credentials. Binary bodies are not kept.
    private func anonymousGet(_ path: String, keepBody: Bool = true) throws -> (status: Int, body: String) {
        let result = try Command.run("/usr/bin/curl", ["-s", "-o", keepBody ? "-" : "/dev/null", "-w", "\n%{http_code}",
                                                       "\(store.publicBaseURL)/\(bucket)/\(prefix)/\(path)"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func testTwoWritersShareOneBucketThatIsTheStaticSite() async throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let names = site.photoNames
        try writeRSS(site, at: "first.xml", title: "First writer's feed", photos: Array(names[0...2]), base: base)
        try writeRSS(site, at: "second.xml", title: "Second writer's feed", photos: Array(names[2...3]), base: base)
        let folder = try Paths.temporaryFolder()
        let first = folder.appendingPathComponent("first"), second = folder.appendingPathComponent("second")

        let sync = try photomirror.run(["sync", "--cache", first.path, "--store", storeURL, server.url("first.xml")])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("gallery: \(storeURL)/index.html"), sync.stderr)
        let local = Set(try FileManager.default.contentsOfDirectory(atPath: first.path))
        XCTAssertTrue(local.isSubset(of: ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "lock", ".sync-state.json",
                                          "space-reserve", "config.json"]),
                      "only the index, its sidecar, the lock, config.json and the disk's reserve stay on disk: \(local)")

        var stored = try await keys()
        let originals = stored.filter { $0.hasPrefix("originals/") }
        XCTAssertEqual(originals.count, 3, "\(stored)")
        XCTAssertEqual(stored.filter { $0.hasPrefix("thumbs/40x40/") }.count, 3)
        for path in ["index.html", "favicon.svg"] { XCTAssertTrue(stored.contains(path), "\(path) missing: \(stored)") }
        XCTAssertEqual(stored.filter { $0.hasPrefix("feeds/") && $0.hasSuffix("/manifest.json") }.count, 1)
        XCTAssertEqual(stored.filter { $0.hasPrefix("feeds/") && $0.hasSuffix("/index.html") }.count, 1)
        for path in originals {
            let object = try await client.getObject(bucket: bucket, key: "\(prefix)/\(path)")
            let name = (path as NSString).lastPathComponent.prefix { $0 != "." }
            XCTAssertEqual(object.map { Digest.sha256Hex($0.bytes) }, String(name), "\(path) holds other bytes")
            XCTAssertEqual(object?.info.metadata["sha256"], String(name))
            XCTAssertEqual(object?.info.cacheControl, "public, max-age=31536000, immutable")
        }

        // The bucket made public is the gallery, as a static host or a CDN serves it.
        try await client.setBucketPublicRead(bucket)
        let page = try anonymousGet("index.html")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("First writer&#39;s feed") || page.body.contains("First writer's feed"), page.body)
        let thumbnail = try XCTUnwrap(stored.first { $0.hasPrefix("thumbs/40x40/") })
        XCTAssertEqual(try anonymousGet(thumbnail, keepBody: false).status, 200)

        // The second writer shares photo 2 with the first: its original is not uploaded again.
        let shared = try XCTUnwrap(originals.first { $0.contains(Digest.sha256Hex(try Data(contentsOf: site.root.appendingPathComponent("photos/\(names[2])")))) })
        let before = try await client.headObject(bucket: bucket, key: "\(prefix)/\(shared)")
        try await Task.sleep(nanoseconds: 1_100_000_000)
        let other = try photomirror.run(["sync", "--cache", second.path, "--store", storeURL, server.url("second.xml")])
        XCTAssertEqual(other.status, 0, other.stderr)
        let after = try await client.headObject(bucket: bucket, key: "\(prefix)/\(shared)")
        XCTAssertNotNil(before?.lastModified)
        XCTAssertEqual(after?.lastModified, before?.lastModified, "the shared original was uploaded again")
        stored = try await keys()
        XCTAssertEqual(stored.filter { $0.hasPrefix("originals/") }.count, 4)
        let root = try anonymousGet("index.html").body
        for title in ["First writer", "Second writer"] { XCTAssertTrue(root.contains(title), "root page lacks \(title): \(root)") }

        // verify checks the bucket against the first writer's index; the second writer's objects
        // are not its garbage. An object deleted behind its back is named; repair mends it.
        let clean = try photomirror.run(["verify", "--cache", first.path, "--store", storeURL])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertTrue(clean.stderr.contains("0 damaged, 0 garbage"), clean.stderr)
        let firstOnlyHash = Digest.sha256Hex(try Data(contentsOf: site.root.appendingPathComponent("photos/\(names[0])")))
        let firstOnly = try XCTUnwrap(stored.first { $0.hasPrefix("thumbs/40x40/") && $0.contains(firstOnlyHash) })
        _ = try await client.deleteObjects(bucket: bucket, keys: ["\(prefix)/\(firstOnly)"])
        let damaged = try photomirror.run(["verify", "--cache", first.path, "--store", storeURL])
        XCTAssertEqual(damaged.status, 1, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains(firstOnly), "verify does not name \(firstOnly): \(damaged.stderr)")
        let repaired = try photomirror.run(["verify", "--repair", "--cache", first.path, "--store", storeURL])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertEqual(try photomirror.run(["verify", "--cache", first.path, "--store", storeURL]).status, 0)
        XCTAssertEqual(try photomirror.run(["verify", "--deep", "--cache", second.path, "--store", storeURL]).status, 0)

        // The first writer prunes everything it can: its own images go, the one the second
        // writer's feed shows stays.
        let prune = try photomirror.run(["prune", "--cache", first.path, "--store", storeURL, "--max", "1B"])
        XCTAssertTrue([0, 1].contains(prune.status), prune.stderr)
        stored = try await keys()
        XCTAssertTrue(stored.contains(shared), "prune deleted an image another writer's feed uses")
        for name in names[0...1] {
            let hash = Digest.sha256Hex(try Data(contentsOf: site.root.appendingPathComponent("photos/\(name)")))
            XCTAssertFalse(stored.contains { $0.hasPrefix("originals/") && $0.contains(hash) }, "\(name) not evicted")
        }
        let secondManifest = try XCTUnwrap(stored.first { $0.hasSuffix("/manifest.json") && !$0.contains(Self.feedKey(server.url("first.xml"))) })
        let fetched = try await client.getObject(bucket: bucket, key: "\(prefix)/\(secondManifest)")
        let manifest = try XCTUnwrap(fetched)
        let text = String(decoding: manifest.bytes, as: UTF8.self)
        for case let path as String in (try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
            .flatMap({ $0["items"] as? [[String: Any]] })?.flatMap({ [$0["original"], $0["thumbnail"]] }) ?? [] {
            XCTAssertTrue(stored.contains(path), "the second writer's manifest names \(path), which is gone: \(text)")
        }
    }

    /// The crash test of a cache folder, with the files in the bucket: SIGKILL at random instants
    /// of a slow sync, verify after each, then the sync completes.
    func testAKilledSyncIntoTheStoreLeavesABucketThatVerifies() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 8))
        let server = try FixtureServer(root: site.root, arguments: ["--delay", "0.1"])
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let folder = try Paths.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        var generator = SystemRandomNumberGenerator()
        for round in 1...4 {
            let delay = Double.random(in: 0.05...1.0, using: &generator)
            try photomirror.kill(["sync", "--jobs", "2", "--cache", cache, "--store", storeURL, server.url("feed.js")],
                                 after: delay, output: folder.appendingPathComponent("round-\(round).log"))
            let verify = try photomirror.run(["verify", "--cache", cache, "--store", storeURL])
            XCTAssertEqual(verify.status, 0, "round \(round), killed after \(delay) s:\n\(verify.stderr)")
        }
        let final = try photomirror.run(["sync", "--json", "--cache", cache, "--store", storeURL, server.url("feed.js")])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertTrue(final.stdout.contains("\"ok\" : 8"), final.stdout)
        let verify = try photomirror.run(["verify", "--cache", cache, "--store", storeURL])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("0 damaged"), verify.stderr)
    }

    static func feedKey(_ url: String) -> String {
        String(Digest.sha256Hex(Array(url.utf8)).prefix(16))
    }
}
