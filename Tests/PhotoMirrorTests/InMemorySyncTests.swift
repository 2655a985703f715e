import Foundation
import PMCache
import PMImaging
import PMLoading
import PMSupport
import Testing
@testable import PhotoMirror

/// The sync engine and its media pipeline on the in-memory transport and storage: no network,
/// no disk (the index lives in memory too).
@Suite struct InMemorySyncTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Images/pillow")
    static let jpeg = Array(FileManager.default.contents(atPath: fixtures.appendingPathComponent("flower2.jpg").path) ?? Data())
    static let png = Array(FileManager.default.contents(atPath: fixtures.appendingPathComponent("pil123rgba.png").path) ?? Data())
    static let feedURL = "http://feeds.test/photos.rss"

    static func rss(_ images: [String]) -> [UInt8] {
        let items = images.enumerated().map { index, url in
            "<item><title>photo \(index)</title><guid>p\(index)</guid><enclosure url=\"\(url)\" type=\"image/jpeg\"/></item>"
        }.joined()
        return Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Test</title><link>http://feeds.test/</link>\(items)</channel></rss>".utf8)
    }

    struct Harness {
        let transport = MemoryTransport()
        let storage = MemoryStorage()

        func engine(sizes: [ThumbnailSize] = [ThumbnailSize(width: 40, height: 40)]) -> SyncEngine {
            var options = SyncOptions()
            options.imaging.sizes = sizes
            var engine = SyncEngine(cacheRoot: "/nonexistent/photomirror-in-memory", options: options)
            let (transport, storage) = (transport, storage)
            engine.stages = SyncStages(transport: { _ in transport }, storage: { _, _ in storage })
            return engine
        }
    }

    /// One cache for the harness's runs: the in-memory index lives as long as it.
    final class SharedCache: Sendable {
        let cache: OpenCache
        init(storage: MemoryStorage) throws { cache = try OpenCache(inMemoryWith: storage) }
    }

    func run(_ harness: Harness, shared: SharedCache, sizes: [ThumbnailSize] = [ThumbnailSize(width: 40, height: 40)]) async throws -> SyncReport {
        var engine = harness.engine(sizes: sizes)
        engine.openCache = { _, _, _ in shared.cache }
        return try await engine.run(feedURLs: [Self.feedURL])
    }

    @Test func aSyncStoresEveryFileThroughTheStorageAndASecondDownloadsNothing() async throws {
        #expect(!Self.jpeg.isEmpty && !Self.png.isEmpty, "fixtures at \(Self.fixtures.path)")
        let harness = Harness()
        harness.transport.serve(Self.feedURL, Self.rss(["http://img.test/a.jpg", "http://img.test/b.png", "http://img.test/gone.jpg"]),
                                headers: ["etag": "\"v1\""])
        harness.transport.serve("http://img.test/a.jpg", Self.jpeg)
        harness.transport.serve("http://img.test/b.png", Self.png)
        let shared = try SharedCache(storage: harness.storage)

        let first = try await run(harness, shared: shared)
        let feed = try #require(first.feeds.first)
        #expect(feed.items == 3 && feed.ok == 2 && feed.failed == 1 && feed.downloaded == 2, "\(feed)")
        let files = harness.storage.files
        let jpegHash = Digest.sha256Hex(Self.jpeg)
        #expect(files[CacheLayout.originalPath(sha256: jpegHash, fileExtension: "jpg")] == Self.jpeg)
        #expect(files[CacheLayout.thumbnailPath(originalSHA256: jpegHash, size: "40x40")] != nil)
        let key = CacheLayout.feedKey(url: Self.feedURL)
        for path in [CacheLayout.manifestPath(feedKey: key), CacheLayout.jsonFeedPath(feedKey: key),
                     "feeds/\(key)/index.html", CacheLayout.galleryFile] {
            #expect(files[path] != nil, "\(path) not published")
        }
        #expect(harness.storage.contentPuts == 4, "two originals and two thumbnails")

        harness.transport.clearLog()
        let second = try await run(harness, shared: shared)
        #expect(harness.transport.requests == ["GET \(Self.feedURL) 304", "GET http://img.test/gone.jpg 404"],
                "the feed asked with its ETag, cached images not asked again: \(harness.transport.requests)")
        #expect(second.feeds.first?.unchanged == true)
        #expect(harness.storage.contentPuts == 4)
    }

    /// The first new images start while their feed is staged (`EarlyStarts`), the rest once it
    /// is: every URL is asked for once, one listed twice too, and each item is recorded.
    @Test func imagesStartedWhileTheFeedIsStagedAreFetchedOnceAndRecorded() async throws {
        let harness = Harness()
        let urls = (0..<40).map { "http://img.test/\($0).jpg" }
        harness.transport.serve(Self.feedURL, Self.rss(urls + urls.prefix(5) + ["http://img.test/gone.jpg"]))
        for url in urls { harness.transport.serve(url, Self.jpeg) }
        let shared = try SharedCache(storage: harness.storage)

        let report = try await run(harness, shared: shared)
        let feed = try #require(report.feeds.first)
        #expect(feed.items == 46 && feed.ok == 45 && feed.failed == 1 && feed.downloaded == 40, "\(feed)")
        let asked = harness.transport.requests.filter { $0.hasPrefix("GET http://img.test/") }
        #expect(asked.count == 41 && Set(asked).count == 41, "each image URL once: \(asked)")
    }

    /// A sync killed after a first feed's pages leaves no dangling link: the root page and the
    /// icon the pages link to are published before any of them.
    @Test func theRootPageAndIconComeBeforeTheFirstFeedPage() async throws {
        let harness = Harness()
        harness.transport.serve(Self.feedURL, Self.rss(["http://img.test/a.jpg"]))
        harness.transport.serve("http://img.test/a.jpg", Self.jpeg)
        _ = try await run(harness, shared: try SharedCache(storage: harness.storage))
        let order = harness.storage.publishes
        let firstFeedPage = try #require(order.firstIndex { $0.hasPrefix(CacheLayout.feedsFolder + "/") && $0.hasSuffix(".html") })
        let root = try #require(order.firstIndex(of: CacheLayout.galleryFile))
        let icon = try #require(order.firstIndex(of: "favicon.svg"))
        #expect(root < firstFeedPage && icon < firstFeedPage, "\(order)")
    }

    @Test func aNewSizeIsMadeFromTheStoredOriginalWithoutARequest() async throws {
        let harness = Harness()
        harness.transport.serve(Self.feedURL, Self.rss(["http://img.test/a.jpg"]))
        harness.transport.serve("http://img.test/a.jpg", Self.jpeg)
        let shared = try SharedCache(storage: harness.storage)
        _ = try await run(harness, shared: shared)
        harness.transport.clearLog()
        let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 80, height: 80)]
        let report = try await run(harness, shared: shared, sizes: sizes)
        #expect(report.feeds.first?.ok == 1)
        #expect(harness.transport.requests == ["GET \(Self.feedURL) 200"], "\(harness.transport.requests)")
        #expect(harness.storage.files[CacheLayout.thumbnailPath(originalSHA256: Digest.sha256Hex(Self.jpeg), size: "80x80")] != nil)
    }

    @Test func aStorageThatCannotBeWrittenStopsTheSyncNamingTheCause() async throws {
        let harness = Harness()
        harness.transport.serve(Self.feedURL, Self.rss(["http://img.test/a.jpg", "http://img.test/b.png"]))
        harness.transport.serve("http://img.test/a.jpg", Self.jpeg)
        harness.transport.serve("http://img.test/b.png", Self.png)
        harness.storage.failWrites(with: StorageError("memory: no space left on device", endsTheSync: true))
        let shared = try SharedCache(storage: harness.storage)
        do {
            _ = try await run(harness, shared: shared)
            Issue.record("a sync into a full storage succeeded")
        } catch {
            #expect("\(error)".contains("no space left"), "\(error)")
        }
        #expect(try await shared.cache.index.feeds().isEmpty, "no row names a file that was not stored")
    }

    @Test func theMediaPipelineRefusesWhatIsNotAnImageAndKeepsNothing() async throws {
        let storage = MemoryStorage()
        let transport = MemoryTransport()
        transport.serve("http://img.test/page.jpg", Array("<html><body>not an image</body></html>".utf8),
                        headers: ["content-type": "image/jpeg"])
        let cache = try OpenCache(inMemoryWith: storage)
        let pool = BlockingPool(threads: 1, name: "test.codec")
        defer { pool.shutdown() }
        let gate = DownloadGate(maxTransfers: 2, maxWaiting: 2, decoders: 1)
        let pipeline = MediaPipeline(loader: GatedLoader(gate: gate, base: transport), index: cache.index, storage: storage,
                                     pool: pool, loading: LoadingOptions(), imaging: ImagingOptions(), gate: gate)
        let finished = await pipeline.mirror("http://img.test/page.jpg")
        guard case .failed(let reason) = finished.outcome else {
            Issue.record("an HTML page stored as an image: \(finished.outcome)")
            return
        }
        #expect(reason.lowercased().contains("html"), "\(reason)")
        #expect(finished.write == nil)
        #expect(storage.files.isEmpty)
    }
}
