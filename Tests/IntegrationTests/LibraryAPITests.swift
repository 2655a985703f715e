import Foundation
import PhotoMirror
import XCTest

/// The `PhotoMirror` library's public API (docs/library.md), in process, against a local server:
/// what a program gets without the command.
final class LibraryAPITests: XCTestCase {
    func testSyncLookUpPruneAndVerifyThroughTheLibrary() async throws {
        let photos = try Paths.photos(count: 4)
        let site = try FeedSite(photos: photos)
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let feed = server.url("feed.js")
        var configuration = MirrorCache.Configuration()
        configuration.sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 64, height: 32)]
        let cache = MirrorCache(folder: try Paths.temporaryFolder().appending(path: "cache"), configuration: configuration)

        var progressed = 0
        var report: SyncReport?
        for try await event in cache.sync([feed]) {
            switch event {
            case .progress: progressed += 1
            case .pruned: XCTFail("no size limit was set")
            case .finished(let finished): report = finished
            }
        }
        XCTAssertGreaterThan(progressed, 0, "progress comes as the images settle")
        let synced = try XCTUnwrap(report?.feeds.first)
        XCTAssertEqual(synced.ok, photos.count)

        let items = try await cache.items(inFeed: feed)
        XCTAssertEqual(items.count, photos.count)
        XCTAssertEqual(Set(items.map(\.status)), ["ok"])
        let first = try XCTUnwrap(items.first)
        let url = try XCTUnwrap(first.imageURL)
        let found = try await cache.image(for: url)
        let image = try XCTUnwrap(found)
        XCTAssertEqual(image.format, "jpeg")
        XCTAssertEqual(Set(image.thumbnails.keys.map(\.description)), ["40x40", "64x32"])
        let original = try XCTUnwrap(image.original)
        let bytes = try Data(contentsOf: original.fileURL)
        XCTAssertEqual(try CacheDisk.sha256Hex(bytes), image.sha256, "the original's file holds the bytes its hash names")
        let byHash = try await cache.image(sha256: image.sha256)
        XCTAssertEqual(byHash, image)
        XCTAssertEqual(first.image?.thumbnails, image.thumbnails)
        XCTAssertTrue((5...40).contains(image.placeholder?.count ?? 0), "the image's ThumbHash: \(image.placeholder ?? [])")
        XCTAssertEqual(first.image?.placeholder, image.placeholder, "the same through the feed's items")
        let thumbnail = try Data(contentsOf: try XCTUnwrap(image.thumbnails[ThumbnailSize(width: 64, height: 32)]).fileURL)
        XCTAssertEqual(Array(thumbnail.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let unknownURL = try await cache.image(for: server.url("never-named.jpg"))
        XCTAssertNil(unknownURL)
        let unknownHash = try await cache.image(sha256: String(repeating: "0", count: 64))
        XCTAssertNil(unknownHash)

        let verified = try await cache.verify(deep: true)
        XCTAssertTrue(verified.isHealthy, "\(verified.damage)")
        let pruned = try await cache.prune(maxSize: 1)
        XCTAssertGreaterThan(pruned.originalsEvicted, 0)
        let prunedImage = try await cache.image(for: url)
        let afterPrune = try XCTUnwrap(prunedImage)
        XCTAssertNil(afterPrune.original, "a prune to nothing evicts the originals")
        XCTAssertNil(afterPrune.placeholder, "and the placeholder kept with the original's row")
        let reverified = try await cache.verify()
        XCTAssertTrue(reverified.isHealthy, "\(reverified.damage)")
    }

    func testASyncOfAFeedThatCannotBeReadFinishesWithItsError() async throws {
        let cache = MirrorCache(folder: try Paths.temporaryFolder().appending(path: "cache"))
        var report: SyncReport?
        for try await event in cache.sync(["/nonexistent/feed.rss"]) {
            if case .finished(let finished) = event { report = finished }
        }
        let error = try XCTUnwrap(report?.feeds.first?.error)
        XCTAssertTrue(error.contains("/nonexistent/feed.rss"), error)
    }

    func testLocalFilesAreThumbnailedInMemoryAndToAFolder() async throws {
        let photos = try Paths.photos(count: 2)
        let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 20, height: 30)]
        let thumbnails = try await LocalThumbnails.thumbnails(of: photos[0], sizes: sizes)
        XCTAssertEqual(Set(thumbnails.keys), Set(sizes))
        for png in thumbnails.values { XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47]) }
        do {
            _ = try await LocalThumbnails.thumbnails(of: Data("not an image".utf8), sizes: sizes)
            XCTFail("text is not an image")
        } catch {
            XCTAssertTrue("\(error)".contains("image (12 bytes of text)"), "\(error)")
        }

        let folder = try Paths.temporaryFolder()
        let outcome = try await LocalThumbnails.write(photos, size: sizes[0], to: folder)
        XCTAssertEqual(outcome.failures.count, 0)
        XCTAssertEqual(outcome.warnings.count, 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(written, photos.map { $0.deletingPathExtension().lastPathComponent + ".png" }.sorted())
    }
}
