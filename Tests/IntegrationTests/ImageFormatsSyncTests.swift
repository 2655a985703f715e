import Foundation
import XCTest

/// Issue 12 end to end: a feed whose media are WebP, GIF, AVIF and HEIC files (real test-suite
/// files from Tests/Fixtures/Images, served on 127.0.0.1 under names that hide their format) is
/// mirrored: each original is kept under its real format's extension, has a 40x40 thumbnail,
/// the gallery shows and links it, `verify` agrees, and `serve` sends each with its MIME type.
final class ImageFormatsSyncTests: XCTestCase {
    /// (corpus file, its format's extension in the cache, the Content-Type serve must send)
    static let media = [
        ("libwebp-test-data/test.webp", "webp", "image/webp"),
        ("pillow/transparent.webp", "webp", "image/webp"),
        ("pillow/hopper.gif", "gif", "image/gif"),
        ("pillow/chi.gif", "gif", "image/gif"),
        ("libavif/kodim03_yuv420_8bpc.avif", "avif", "image/avif"),
        ("libavif/sofa_grid1x5_420.avif", "avif", "image/avif"),
        ("libheif/rainbow-451x461.heic", "heic", "image/heic"),
        ("generated/kodim03-displayp3.heic", "heic", "image/heic"),
    ]

    func testAFeedOfWebPGIFAVIFAndHEICIsMirroredEndToEnd() throws {
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Images")
        let site = try Paths.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("media"), withIntermediateDirectories: true)
        // Served as .jpg: the format must come from the bytes, never the URL.
        var names: [String] = []
        for (number, (file, _, _)) in Self.media.enumerated() {
            let name = "photo\(number).jpg"
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(file),
                                             to: site.appendingPathComponent("media/\(name)"))
            names.append(name)
        }
        let server = try FixtureServer(root: site)
        defer { server.stop() }
        let feedSite = FeedSite(root: site)
        try feedSite.writeFlickrFeed(at: "feed.json", items: names.enumerated().map { number, name in
            FeedSite.Item(title: "format \(number)", media: server.url("media/\(name)"),
                          link: "https://www.flickr.com/photos/tester/\(80000 + number)/")
        })
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()

        let sync = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.json")])
        XCTAssertEqual(sync.status, 0, "every format is mirrored:\n\(sync.stderr)")
        let feed = try CacheInspection.firstFeed(fromSummary: sync.stdout)
        XCTAssertEqual(feed["ok"] as? Int, Self.media.count, sync.stdout)
        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertEqual(items.count, Self.media.count)
        let page = try String(contentsOf: cache.appendingPathComponent((feed["manifest"] as! NSString)
            .deletingLastPathComponent).appendingPathComponent("index.html"), encoding: .utf8)

        var served: [(path: String, type: String)] = []
        for item in items {
            let title = try XCTUnwrap(item["title"] as? String)
            let number = try XCTUnwrap(Int(title.replacingOccurrences(of: "format ", with: "")))
            let (file, fileExtension, mimeType) = Self.media[number]
            XCTAssertEqual(item["status"] as? String, "ok", "\(file): \(item)")
            let original = try XCTUnwrap(item["original"] as? String, "\(file): no original")
            XCTAssertTrue(original.hasPrefix("originals/"), original)
            XCTAssertEqual((original as NSString).pathExtension, fileExtension, "\(file): kept as \(original)")
            let bytes = try Data(contentsOf: cache.appendingPathComponent(original))
            XCTAssertEqual(bytes, try Data(contentsOf: corpus.appendingPathComponent(file)), "\(file): the original is byte for byte")
            let thumbnail = try XCTUnwrap(item["thumbnail"] as? String, "\(file): no thumbnail")
            let size = pngSize(try Data(contentsOf: cache.appendingPathComponent(thumbnail)))
            XCTAssertEqual(size?.width, 40, file)
            XCTAssertEqual(size?.height, 40, file)
            XCTAssertTrue(page.contains((thumbnail as NSString).lastPathComponent), "\(file): the gallery shows its thumbnail")
            XCTAssertTrue(page.contains((original as NSString).lastPathComponent), "\(file): the gallery links its original")
            served.append((original, mimeType))
        }

        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("verify ok"), verify.stderr)

        let serve = try ServeProcess(cache: cache)
        defer { serve.stop() }
        for (path, type) in served {
            let response = try RawHTTP.request(port: serve.port, "GET", "/" + path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.header("Content-Type"), type, path)
            XCTAssertEqual(Data(response.body), try Data(contentsOf: cache.appendingPathComponent(path)), path)
        }
    }
}

extension FeedSite {
    /// A site folder the test fills itself.
    init(root: URL) {
        self.root = root
        photoNames = []
    }
}
