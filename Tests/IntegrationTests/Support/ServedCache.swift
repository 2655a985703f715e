import Foundation

/// A cache synced from a Flickr-style feed of real photos served on 127.0.0.1: `okCount` photos
/// at 40x40 with the given --scales (and any other sync flags, such as a `--format`), plus one
/// item whose image is missing (HTTP 404).
struct SyncedCache {
    let root: URL
    let photoCount: Int
    static let failedCount = 1

    init(photos okCount: Int, scales: String = "1,2", flags: [String] = []) throws {
        let site = try FeedSite(photos: try Paths.photos(count: okCount))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)",
                                 extraMedia: [server.url("photos/missing.jpg")])
        root = try Paths.temporaryFolder().appendingPathComponent("cache")
        let sync = try Photomirror().run(["sync", "--cache", root.path, "--scales", scales] + flags + [server.url("feed.js")])
        guard sync.status == 1, sync.stderr.contains("HTTP 404") else {
            throw ServerError(description: "the sync should fail only the missing photo: \(sync.status)\n\(sync.stderr)")
        }
        photoCount = okCount
    }

    /// Relative paths of the first original and its 40x40 thumbnail, from the manifest.
    func firstItemFiles() throws -> (original: String, thumbnail: String, manifest: String) {
        let feeds = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("feeds").path).sorted()
        // The one feed folder; tests plant other entries (symlinks) beside it.
        guard let manifest = feeds.map({ "feeds/\($0)/manifest.json" }).first(where: {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }) else { throw ServerError(description: "no manifest in \(feeds)") }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(manifest))) as? [String: Any]
        let item = (json?["items"] as? [[String: Any]])?.first { $0["status"] as? String == "ok" }
        guard let original = item?["original"] as? String, let thumbnail = item?["thumbnail"] as? String else {
            throw ServerError(description: "no ok item in \(manifest)")
        }
        return (original, thumbnail, manifest)
    }
}
