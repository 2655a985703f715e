import Foundation
import PMObjectStore
import XCTest

/// Issue 27 in a bucket: a variant's thumbnails are put under their folder with their format's
/// Content-Type, beside the default's, and `verify --store` accepts them.
final class ObjectStoreThumbnailFormatsTests: ObjectStoreTestCase {
    func testEachFormatsThumbnailsArePutWithTheirType() async throws {
        let site = try FeedSite(photos: try Paths.photos(count: 2))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let storeURL = "s3://\(bucket)/site"
        let variants = [(["--format", "webp", "--fit", "contain"], "40x40-contain.webp", "image/webp"),
                        (["--format", "avif", "--fit", "cover"], "40x40.avif", "image/avif"),
                        (["--format", "jpeg", "--quality", "90"], "40x40-q90.jpg", "image/jpeg"),
                        (["--format", "png"], "40x40", "image/png")]
        for (flags, folder, type) in variants {
            let sync = try photomirror.run(["sync", "--cache", cache.path, "--store", storeURL] + flags + [server.url("feed.js")])
            XCTAssertEqual(sync.status, 0, "\(folder): \(sync.stderr)")
            let thumbnails = try await client.listObjects(bucket: bucket, prefix: "site/thumbs/\(folder)/")
            XCTAssertEqual(thumbnails.count, 2, "\(folder): \(thumbnails.map(\.key))")
            for object in thumbnails {
                XCTAssertEqual((object.key as NSString).pathExtension, (folder as NSString).pathExtension.isEmpty ? "png"
                               : (folder as NSString).pathExtension, object.key)
                let info = try await client.headObject(bucket: bucket, key: object.key)
                XCTAssertEqual(info?.contentType, type, object.key)
                XCTAssertEqual(info?.cacheControl, "public, max-age=31536000, immutable", object.key)
            }
        }
        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
    }
}
