import Foundation
import Testing
@testable import PMCache
import PMSupport

/// The index gives back to the file system what a prune deleted: rows written through the index
/// API as syncs write them, a plan of the real eviction policy, dropped as prune drops them, then
/// the checkpoint prune ends with.
@Suite struct IndexReclaimTests {
    static let images = 20_000

    struct Measured {
        var before = 0
        var after = 0
        var freePagesAfter = 0
        /// The file's incremental-vacuum flag (header bytes 64-67) after the prune.
        var incrementalAfter = false
        var evictedOriginals = 0
        var evictedThumbnails = 0
    }

    /// `images` images, each a media URL, an original and a 40x40 thumbnail, last used in the
    /// order they were stored; the feeds list the newest `listed` share of them (a feed lists its
    /// latest items, so a cache that has synced for a while holds many images no feed lists).
    /// With `oneSync`, every image was stored and last used at the same time, as by one sync:
    /// prune then takes them in hash order, scattered over the tables' rowid order.
    static func prune(listed: Double, oneSync: Bool = false, goal: (_ usage: Int) -> EvictionGoal) async throws -> Measured {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-reclaim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("index.sqlite").path
        let index = try PhotoIndex(path: path)
        var writes: [PhotoIndex.MediaWrite] = []
        var disk: [CachePath: Int] = [:]
        var hashes: [String] = []
        for number in 0..<images {
            let sha = Digest.sha256Hex(Array("image \(number)".utf8))
            hashes.append(sha)
            let time = oneSync ? 1 : Double(number)
            let original = CacheLayout.originalPath(sha256: sha, fileExtension: "jpg")
            let thumbnail = CacheLayout.thumbnailPath(originalSHA256: sha, size: "40x40")
            disk[CachePath(original)] = 40_960
            disk[CachePath(thumbnail)] = 4_096
            writes.append(.record(
                resource: ResourceRecord(url: mediaURL(number), sha256: sha, etag: "\"\(sha.prefix(16))\"",
                                         lastModified: "Mon, 21 Dec 2015 05:48:08 GMT", contentType: "image/jpeg",
                                         fetchedAt: time, lastAccess: time),
                original: OriginalRecord(sha256: sha, path: original, bytes: 40_000, format: "jpeg", storedAt: time,
                                         lastAccess: time),
                thumbnails: [ThumbnailRecord(originalSHA256: sha, size: "40x40", bytes: 1_500,
                                             sha256: Digest.sha256Hex(Array(sha.utf8)), storedAt: time, lastAccess: time)]))
        }
        try await index.apply(writes)
        let feeds = 20
        let firstListed = images - Int(Double(images) * listed)
        for feed in 0..<feeds {
            let record = FeedRecord(
                key: String(format: "%016x", feed),
                url: "https://www.flickr.com/services/feeds/photos_public.gne?tags=t\(feed)&format=json",
                kind: "flickrPublic", title: "Uploads tagged t\(feed)", link: "https://www.flickr.com/photos/tags/t\(feed)/",
                attribution: nil, etag: nil, lastModified: nil, lastSync: 0)
            let items = stride(from: firstListed + feed, to: images, by: feeds).map { number in
                ItemRecord(itemID: String(60_000_000_000 + number), position: number, title: "Photo \(number) of the feed",
                           link: "https://www.flickr.com/photos/someone/\(60_000_000_000 + number)/",
                           published: Double(number), dateTaken: Double(number), author: "someone", tags: ["potato", "garden"],
                           description: " <p><a href=\"https://www.flickr.com/people/someone/\">someone</a> posted a photo</p>",
                           mediaURL: mediaURL(number), status: .ok, error: nil, sha256: hashes[number], mediaSource: "api")
            }
            try await index.replaceFeed(record, items: items)
        }
        await index.checkpoint()
        var measured = Measured(before: fileBytes(path))
        let usage = disk.values.reduce(0, +)
        var images = try await index.evictionImages()
        images.measure { disk[$0] }
        let plan = EvictionPolicy.plan(images: images, usage: usage, goal: goal(usage))
        _ = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) })
        await index.checkpoint()
        measured.after = fileBytes(path)
        measured.freePagesAfter = try freePages(path)
        measured.incrementalAfter = try headerWord(path, at: 64) != 0
        measured.evictedOriginals = plan.originals.count
        measured.evictedThumbnails = plan.thumbnails.count
        return measured
    }

    static func mediaURL(_ number: Int) -> String {
        "https://live.staticflickr.com/65535/\(5_000_000_000 + number)_0a1b2c3d4e_m.jpg"
    }

    static func fileBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// The free-list page count of the database header (big-endian, at byte 36).
    static func freePages(_ path: String) throws -> Int {
        try headerWord(path, at: 36)
    }

    /// The big-endian word of the database header at `offset`.
    static func headerWord(_ path: String, at offset: Int) throws -> Int {
        let header = try #require(FileManager.default.contents(atPath: path)?.prefix(offset + 4))
        return header.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func expiringTheOlderHalfOfTheImagesLeavesAtMostSixtyPercentOfTheFile() async throws {
        let measured = try await Self.prune(listed: 0.2) { _ in EvictionGoal(expireBefore: Double(Self.images / 2)) }
        print("reclaim, feeds list the newest fifth, older half expired: \(measured.before) -> \(measured.after) bytes")
        #expect(measured.evictedOriginals == Self.images / 2 && measured.evictedThumbnails == Self.images / 2)
        #expect(measured.freePagesAfter == 0)
        #expect(measured.incrementalAfter, "the file is back in incremental vacuum mode")
        #expect(Double(measured.after) <= 0.6 * Double(measured.before), "\(measured.before) -> \(measured.after) bytes")
    }

    /// The same cache halved by size: the older images are the least recently used, and as no
    /// feed lists them they go whole, so the file shrinks as it does for expiry.
    @Test func halvingTheDiskOfALongSyncedCacheLeavesAtMostSixtyPercentOfTheFile() async throws {
        let measured = try await Self.prune(listed: 0.2) { EvictionGoal(targetBytes: $0 / 2) }
        print("reclaim, feeds list the newest fifth, disk halved: \(measured.before) -> \(measured.after) bytes")
        #expect(measured.evictedOriginals >= Self.images / 2 - Self.images / 20)
        #expect(measured.evictedThumbnails == measured.evictedOriginals, "none of them is listed")
        #expect(measured.freePagesAfter == 0)
        #expect(Double(measured.after) <= 0.6 * Double(measured.before), "\(measured.before) -> \(measured.after) bytes")
    }

    /// Every image listed: prune to half the disk takes originals only (thumbnails stay, and so
    /// do their URLs, by which the next sync knows them evicted rather than new, and every item
    /// row), which is all the index can give back: the originals' rows.
    @Test func pruningOriginalsOnlyStillLeavesNoFreePage() async throws {
        let measured = try await Self.prune(listed: 1) { EvictionGoal(targetBytes: $0 / 2) }
        print("reclaim, every image listed, disk halved: \(measured.before) -> \(measured.after) bytes")
        #expect(measured.evictedOriginals > 0 && measured.evictedThumbnails == 0)
        #expect(measured.freePagesAfter == 0)
        #expect(Double(measured.after) <= 0.86 * Double(measured.before), "\(measured.before) -> \(measured.after) bytes")
    }

    /// The originals and URLs one sync stored go in hash order, a row here and there in each
    /// page: their tables are rebuilt packed, so the file shrinks as much as for rows in runs.
    @Test func rowsEvictedAllOverTheirTablesAreRepacked() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-dbstat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try await PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path).measuresPages else {
            print("skipped: this SQLite has no dbstat table, so prune cannot tell a sparse table and does not repack")
            return
        }
        let runs = try await Self.prune(listed: 1) { EvictionGoal(targetBytes: $0 / 2) }
        let scattered = try await Self.prune(listed: 1, oneSync: true) { EvictionGoal(targetBytes: $0 / 2) }
        print("reclaim, every image listed by one sync, disk halved: \(scattered.before) -> \(scattered.after) bytes")
        #expect(scattered.evictedOriginals == runs.evictedOriginals)
        #expect(scattered.freePagesAfter == 0)
        #expect(Double(scattered.after) <= 1.03 * Double(runs.after), "\(scattered.after) vs \(runs.after) bytes")
    }
}
