import Foundation
import XCTest

/// `sync --max` in daily use: a feed larger than the limit, synced again and again, settles. The
/// first sync downloads it and prunes; the next ones of the unchanged feed download nothing and
/// prune nothing, every item keeps its thumbnail, and the prune inside a sync leaves the same
/// files as a separate `prune --max`.
final class SettlingLimitTests: XCTestCase {
    static let imageCount = 1000

    func testASizeLimitBelowTheFeedSettlesWithoutChurn() throws {
        let site = try Self.distinctPhotos(count: Self.imageCount)
        let server = try FixtureServer(root: site.root)
        try site.writeFlickrFeed(at: "feed.js", base: "http://127.0.0.1:\(server.port)")
        let feed = server.url("feed.js")
        let folder = try Paths.temporaryFolder()
        let photomirror = Photomirror()
        func sync(_ cache: URL, _ extra: [String] = []) throws {
            let result = try photomirror.run(["sync", "--quiet", "--cache", cache.path] + extra + [feed])
            XCTAssertEqual(result.status, 0, result.stderr)
        }

        // The whole feed, unbounded: what the limit is measured against.
        let whole = folder.appendingPathComponent("whole")
        try sync(whole)
        let wholeBytes = try CacheDisk.allocatedBytes(whole)
        let limit = wholeBytes / 2
        let target = limit * 4 / 5

        let cache = folder.appendingPathComponent("cache")
        for round in 1...3 {
            server.clearLog()
            try sync(cache, ["--max", String(limit)])
            let images = server.requests.filter { $0.hasPrefix("GET /photos/") }
            if round == 1 {
                XCTAssertEqual(images.count, Self.imageCount, "the first sync downloads the feed once")
            } else {
                XCTAssertEqual(images, [], "sync \(round) of the unchanged feed downloads no image")
            }
            let usage = try CacheDisk.allocatedBytes(cache)
            XCTAssertLessThanOrEqual(usage, target, "sync \(round): within the prune's target (80% of \(limit))")
            XCTAssertGreaterThanOrEqual(usage, target * 3 / 4, "sync \(round): not far below the target \(target)")
            try Self.assertEveryItemKeepsItsThumbnail(cache, feedURL: feed, round: round)
        }
        XCTAssertEqual(try photomirror.run(["verify", "--cache", cache.path]).status, 0)

        // One policy: the prune inside a sync and a separate prune, on copies of the same cache.
        let bySync = folder.appendingPathComponent("by-sync"), byPrune = folder.appendingPathComponent("by-prune")
        try FileManager.default.copyItem(at: whole, to: bySync)
        try FileManager.default.copyItem(at: whole, to: byPrune)
        server.clearLog()
        try sync(bySync, ["--max", String(limit)])
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET /photos/") }, [], "an unchanged feed: no image requested")
        let prune = try photomirror.run(["prune", "--max", String(limit), "--cache", byPrune.path])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        for folderName in ["originals", "thumbs"] {
            let left = Set(CacheDisk.files(in: bySync, under: folderName))
            let pruned = Set(CacheDisk.files(in: byPrune, under: folderName))
            XCTAssertEqual(left.count, pruned.count, "sync --max and prune --max leave as many \(folderName)")
            XCTAssertEqual(left.subtracting(pruned).sorted().prefix(3), [], "only sync --max kept these \(folderName)")
            XCTAssertEqual(pruned.subtracting(left).sorted().prefix(3), [], "only prune --max kept these \(folderName)")
        }
        XCTAssertFalse(CacheDisk.files(in: byPrune, under: "originals").isEmpty)
        XCTAssertLessThan(CacheDisk.files(in: byPrune, under: "originals").count, Self.imageCount)
    }

    /// Every item shows a thumbnail of the gallery's size, and every file the pages name exists.
    static func assertEveryItemKeepsItsThumbnail(_ cache: URL, feedURL: String, round: Int) throws {
        let items = try CacheDisk.itemsByPhoto(cache, feedURL: feedURL)
        XCTAssertEqual(items.count, imageCount)
        let statuses = Set(items.values.compactMap { $0["status"] as? String })
        XCTAssertTrue(statuses.isSubset(of: ["ok", "evicted-original"]), "sync \(round): \(statuses)")
        XCTAssertTrue(statuses.contains("evicted-original"), "sync \(round): the limit evicted originals")
        let withoutThumbnail = items.filter { $0.value["thumbnail"] as? String == nil }.keys.sorted()
        XCTAssertEqual(withoutThumbnail, [], "sync \(round): items without a thumbnail")
        XCTAssertEqual(try CacheDisk.brokenReferences(cache), [], "sync \(round)")
    }

    /// `count` distinct JPEGs, cheaply: one small real photo, each copy with its own comment
    /// segment after the SOI marker (decoders skip it, so each decodes as the photo does).
    static func distinctPhotos(count: Int) throws -> FeedSite {
        let base = try XCTUnwrap(try Paths.photos(count: 12).first { $0.lastPathComponent == "FreshFlower.jpg" })
        let site = try FeedSite(photos: [])
        let bytes = try Data(contentsOf: base)
        XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xD8], "\(base.path) is a JPEG")
        var names: [String] = []
        for number in 0..<count {
            let text = Data("photomirror test copy \(number)".utf8)
            let length = text.count + 2
            var copy = Data(bytes.prefix(2))
            copy.append(contentsOf: [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)])
            copy.append(text)
            copy.append(bytes.dropFirst(2))
            let name = String(format: "%04d.jpg", number)
            try copy.write(to: site.root.appendingPathComponent("photos/\(name)"))
            names.append(name)
        }
        return FeedSite(root: site.root, photoNames: names)
    }
}

private extension FeedSite {
    init(root: URL, photoNames: [String]) {
        self.root = root
        self.photoNames = photoNames
    }
}
