import Foundation
import XCTest

/// A feed URL's user info and secret query parameters, and the bytes of an answer that is not
/// an image, are never written into what the cache publishes (manifest, JSON Feed, pages), its
/// sidecar, or what the sync prints. The index alone keeps the URL a re-sync asks for.
final class PublishedSecretsTests: XCTestCase {
    func testSecretsOfTheFeedURLAndNonImageBytesAreNotPublished() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        try Data("SECRET-BODY=hunter2 and more".utf8).write(to: site.root.appendingPathComponent("photos/note.jpg"))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.json", items: [
            .init(title: "photo", media: server.url("photos/\(site.photoNames[0])")),
            .init(title: "not an image", media: server.url("photos/note.jpg")),
        ])
        let feed = "http://photo-user:S3CRET-PASS@127.0.0.1:\(server.port)/feed.json?apikey=APIKEY-0123&ts=TS-0123&page=1"
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let first = try Photomirror().run(["sync", "--cache", cache.path, "--json", feed])
        XCTAssertEqual(first.status, 1, first.stderr)
        let second = try Photomirror().run(["sync", "--cache", cache.path, feed])
        XCTAssertTrue(second.stderr.contains("unchanged (304)"), "the index keeps the URL a re-sync asks for: \(second.stderr)")

        let secrets = ["S3CRET-PASS", "photo-user", "APIKEY-0123", "TS-0123", "hunter2", "53 45 43 52"]
        for output in [first.stdout, first.stderr, second.stderr] {
            for secret in secrets { XCTAssertFalse(output.contains(secret), "printed \(secret): \(output)") }
        }
        XCTAssertTrue(first.stdout.contains("127.0.0.1:\(server.port)/feed.json?page=1"), first.stdout)
        for file in try Self.publishedFiles(in: cache) {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            for secret in secrets { XCTAssertFalse(text.contains(secret), "\(file.lastPathComponent) holds \(secret)") }
        }
    }

    /// Every file of the cache but the index, which is not published and must keep the URL.
    private static func publishedFiles(in cache: URL) throws -> [URL] {
        var files: [URL] = []
        let walker = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                  !url.lastPathComponent.hasPrefix("index.sqlite") else { continue }
            files.append(url)
        }
        XCTAssertTrue(files.contains { $0.lastPathComponent == ".sync-state.json" }, "\(files)")
        XCTAssertTrue(files.contains { $0.lastPathComponent == "feed.json" }, "\(files)")
        return files
    }
}
