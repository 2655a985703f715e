import Foundation
import PMCache
import Testing
@testable import PhotoMirror

/// The sync's rows staged as each feed is read, its URLs read back a page at a time and its rows
/// settled: on the in-memory transport and storage, no network, no disk.
@Suite struct StagedSyncTests {
    typealias Harness = InMemorySyncTests.Harness
    static let jpeg = InMemorySyncTests.jpeg
    static let png = InMemorySyncTests.png

    static func rss(_ images: [String], ids: [String]? = nil) -> [UInt8] {
        let items = images.enumerated().map { index, url in
            "<item><title>photo \(index)</title><guid>\(ids?[index] ?? "p\(index)")</guid><enclosure url=\"\(url)\" type=\"image/jpeg\"/></item>"
        }.joined()
        return Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Test</title>\(items)</channel></rss>".utf8)
    }

    func run(_ harness: Harness, _ cache: InMemorySyncTests.SharedCache, _ feeds: [String]) async throws -> SyncReport {
        var engine = harness.engine()
        engine.openCache = { _, _, _ in cache.cache }
        return try await engine.run(feedURLs: feeds)
    }

    @Test func eachImageIsFetchedOnceHoweverManyItemsPagesAndFeedsNameIt() async throws {
        let harness = Harness()
        let images = ["http://img.test/a.jpg", "http://img.test/b.png", "http://img.test/c.jpg"]
        // Far more items than a page of rows (256), every image on every page.
        let long = (0..<3000).map { images[$0 % images.count] }
        harness.transport.serve("http://feeds.test/long.rss", Self.rss(long), headers: ["etag": "\"v1\""])
        harness.transport.serve("http://feeds.test/short.rss", Self.rss([images[2], images[0]]))
        harness.transport.serve(images[0], Self.jpeg)
        harness.transport.serve(images[1], Self.png)
        harness.transport.serve(images[2], Self.jpeg)
        let cache = try InMemorySyncTests.SharedCache(storage: harness.storage)

        let report = try await run(harness, cache, ["http://feeds.test/long.rss", "http://feeds.test/short.rss"])
        let imageRequests = harness.transport.requests.filter { $0.contains("img.test") }
        #expect(imageRequests.sorted() == images.map { "GET \($0) 200" }.sorted(), "\(imageRequests)")
        let (long3000, short) = (try #require(report.feeds.first), try #require(report.feeds.last))
        #expect(long3000.items == 3000 && long3000.ok == 3000 && long3000.downloaded == 3 && long3000.reused == 0, "\(long3000)")
        #expect(short.items == 2 && short.ok == 2 && short.downloaded == 2, "\(short)")
        let key = CacheLayout.feedKey(url: "http://feeds.test/long.rss")
        let stored = try await cache.cache.index.items(feedKey: key)
        #expect(stored.count == 3000 && stored.allSatisfy { $0.status == .ok && $0.sha256 != nil })
        let manifest = try #require(harness.storage.files[CacheLayout.manifestPath(feedKey: key)])
        let decoded = try JSONDecoder().decode(Manifest.self, from: Data(manifest))
        #expect(decoded.items.count == 3000 && decoded.items.allSatisfy { $0.original != nil })

        harness.transport.clearLog()
        let again = try await run(harness, cache, ["http://feeds.test/long.rss"])
        #expect(harness.transport.requests == ["GET http://feeds.test/long.rss 304"], "\(harness.transport.requests)")
        #expect(again.feeds.first?.reused == 3 && again.feeds.first?.unchanged == true)
    }

    @Test func anUnchangedFeedSettlesAsStagedOnlyWhenTheSyncChangedNoImage() async throws {
        let harness = Harness()
        let feed = "http://feeds.test/photos.rss", other = "http://feeds.test/other.rss"
        let (a, b, c) = ("http://img.test/a.jpg", "http://img.test/b.jpg", "http://img.test/c.jpg")
        harness.transport.serve(feed, Self.rss([a, b]), headers: ["etag": "\"v1\""])
        harness.transport.serve(other, Self.rss([c]))
        harness.transport.serve(a, Self.jpeg)
        let cache = try InMemorySyncTests.SharedCache(storage: harness.storage)
        let first = try #require(try await run(harness, cache, [feed]).feeds.first)
        #expect(first.ok == 1 && first.failed == 1, "b is not served yet: \(first)")

        // 304, but b now loads: the feed's rows are settled from what the sync did.
        harness.transport.serve(b, Self.jpeg)
        let second = try await run(harness, cache, [feed, other])
        let healed = try #require(second.feeds.first)
        #expect(healed.unchanged && healed.ok == 2 && healed.failed == 0 && healed.downloaded == 1 && healed.reused == 1,
                "\(healed)")
        #expect(second.feeds.last?.failed == 1, "c fails in another feed")

        // 304 again while another feed's image fails: settled as before, from each image's row.
        let third = try #require(try await run(harness, cache, [feed, other]).feeds.first)
        #expect(third.unchanged && third.ok == 2 && third.reused == 2 && third.downloaded == 0, "\(third)")

        // 304 and nothing changed anywhere: the rows as staged give the same report, rows and card.
        let key = CacheLayout.feedKey(url: feed)
        let rows = try await cache.cache.index.items(feedKey: key)
        let card = { () throws -> String in
            let bytes = try #require(harness.storage.files[GalleryCardFile.path(feedKey: key)])
            return try JSONDecoder().decode(GalleryCardFile.self, from: Data(bytes)).html
                .replacingOccurrences(of: #"synced <time[^>]*>[^<]*</time>"#, with: "synced …", options: .regularExpression)
        }
        let settledCard = try card()
        #expect(settledCard.contains("2 mirrored") && settledCard.contains("synced …"), "\(settledCard)")
        let fourth = try #require(try await run(harness, cache, [feed]).feeds.first)
        #expect(fourth.unchanged && fourth.ok == 2 && fourth.reused == 2 && fourth.downloaded == 0 && fourth.items == 2,
                "\(fourth)")
        #expect(try await cache.cache.index.items(feedKey: key) == rows)
        #expect(try card() == settledCard)
    }

    @Test func anUnchangedFeedsFailedImageThatAnotherFeedStoredSinceSettlesOK() async throws {
        let harness = Harness()
        let (feed, other) = ("http://feeds.test/a.rss", "http://feeds.test/b.rss")
        let (a, shared) = ("http://img.test/a.jpg", "http://img.test/shared.jpg")
        harness.transport.serve(feed, Self.rss([a, shared]), headers: ["etag": "\"v1\""])
        harness.transport.serve(other, Self.rss([shared]))
        harness.transport.serve(a, Self.jpeg)
        let cache = try InMemorySyncTests.SharedCache(storage: harness.storage)
        #expect(try await run(harness, cache, [feed]).feeds.first?.failed == 1)
        harness.transport.serve(shared, Self.jpeg)
        #expect(try await run(harness, cache, [other]).feeds.first?.downloaded == 1)

        // 304, and this sync only reuses: the row that failed still settles from the stored image.
        let again = try #require(try await run(harness, cache, [feed]).feeds.first)
        #expect(again.unchanged && again.ok == 2 && again.failed == 0 && again.downloaded == 0, "\(again)")
    }

    @Test func aDocumentThatCannotBeReadLeavesTheFeedsRowsAndManifest() async throws {
        let harness = Harness()
        let feed = "http://feeds.test/photos.rss"
        harness.transport.serve(feed, Self.rss(["http://img.test/a.jpg", "http://img.test/a.jpg"], ids: ["x", "x"]),
                                headers: ["etag": "\"v1\""])
        harness.transport.serve("http://img.test/a.jpg", Self.jpeg)
        let cache = try InMemorySyncTests.SharedCache(storage: harness.storage)
        _ = try await run(harness, cache, [feed])
        let key = CacheLayout.feedKey(url: feed)
        let before = try await cache.cache.index.items(feedKey: key)
        #expect(before.map(\.itemID) == ["x", "x-2"], "repeated ids made unique: \(before.map(\.itemID))")
        let manifest = harness.storage.files[CacheLayout.manifestPath(feedKey: key)]

        // XML, so it is read while staged, but no feed: the staging transaction rolls back.
        harness.transport.serve(feed, Array("<?xml version=\"1.0\"?><notafeed><item/></notafeed>".utf8), headers: ["etag": "\"v2\""])
        let report = try await run(harness, cache, [feed])
        #expect(report.feeds.first?.error?.contains("unrecognized feed") == true, "\(String(describing: report.feeds.first))")
        #expect(try await cache.cache.index.items(feedKey: key) == before)
        #expect(try await cache.cache.index.feed(key: key)?.etag == "\"v1\"")
        #expect(harness.storage.files[CacheLayout.manifestPath(feedKey: key)] == manifest)
    }
}
