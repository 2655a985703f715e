import Foundation
@testable import PMCache
import PMSupport
import Testing
@testable import PhotoMirror

/// A feed read once for its three documents (a prune's, holding every image's files, or a
/// sync's) gives the pages that reading it a page at a time gives.
@Suite struct PagedFeedTests {
    @Test func aHeldFeedGivesThePagesOfAPagedOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-paged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
        let shas = (0..<8).map { Digest.sha256Hex(Array("image \($0)".utf8)) }
        for (number, sha) in shas.enumerated() {
            try await index.record(
                resource: ResourceRecord(url: "https://img/\(number)", sha256: sha, etag: "\"\(number)\"", lastModified: nil,
                                         contentType: nil, fetchedAt: 1, lastAccess: Double(number)),
                original: OriginalRecord(sha256: sha, path: CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                                         bytes: 100, format: "jpeg", storedAt: 1, lastAccess: Double(number)),
                thumbnails: ["40x40", "80x80"].map {
                    ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 5, sha256: "t", storedAt: 1, lastAccess: Double(number))
                })
        }
        let record = FeedRecord(key: "a", url: "https://feed/a", kind: "rss", title: "a", link: nil, attribution: nil,
                                etag: nil, lastModified: nil, lastSync: 0, imageURL: "https://img/7", imageSHA256: shas[7])
        let items = (0..<7).map { number in
            // Undated, and two pairs published at once: the orders' tie-breaks.
            ItemRecord(itemID: "\(number)", position: number, title: "photo \(number)", link: nil,
                       published: [nil, 1, 2, 3, 3, 5, 5][number],
                       dateTaken: nil, author: nil, tags: [], description: nil, mediaURL: "https://img/\(number)", status: .ok,
                       error: nil, sha256: shas[number],
                       moreMedia: [MediaRecord(url: "https://img/\((number + 1) % 7)", source: "html", status: .ok, error: nil,
                                               sha256: shas[(number + 1) % 7])])
        }
        try await index.replaceFeed(record, items: items)
        var plan = EvictionPlan()
        plan.originals = [ImageHash(shas[0]), ImageHash(shas[7])]
        plan.thumbnails = [ImageHash(shas[1])]
        let known = KnownFiles(images: try await index.evictionImages(), without: plan)
        _ = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) })

        // Held with the prune's files, and held as a sync holds a feed whose documents it writes.
        let heldWithKnown = try #require(try await PagedFeed.load(key: "a", index: index, known: known))
        let heldWhole = try #require(try await PagedFeed.load(key: "a", index: index, whole: true))
        let paged = try #require(try await PagedFeed.load(key: "a", index: index))
        // Held from the items a sync's settle read and wrote, as stored.
        let settled = try await index.settleFeed(key: "a") { rows in
            var settled = try #require(SettledItems(count: rows.count))
            for (offset, item) in try rows.nextPage(limit: 100).enumerated() {
                let added = settled.add(item, rowid: rows.pageRowids[offset])
                #expect(added)
            }
            settled.lookUp(in: index)
            return settled
        }
        let heldSettled = try #require(try await PagedFeed.load(key: "a", index: index, whole: true, settled: settled))
        let newest = try await paged.order(newestFirst: true)
        #expect(newest.count == 7)
        for held in [heldWithKnown, heldWhole, heldSettled] {
            try await expectSamePages(held, paged, newest: newest, named: shas[7])
        }
        let first = try await heldWithKnown.page(newest.suffix(1))
        #expect(first.items.map(\.status.rawValue) == ["evicted-original"], "item 0 lost its original")
        #expect(try await heldWhole.page(newest.suffix(1)).items == first.items)
        #expect(try await heldSettled.page(newest.suffix(1)).items == first.items)
        #expect(heldSettled.counts == paged.counts)
    }

    /// A sync holds a feed of more than a page of items, read a page at a time, and leaves a
    /// feed whose text is too long for memory paged; both give the paged reads' pages.
    @Test func aSyncHoldsAFeedOnlyWhileItsTextFits() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-paged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
        func feed(_ key: String, items count: Int, description: String) async throws {
            let record = FeedRecord(key: key, url: "https://feed/\(key)", kind: "rss", title: key, link: nil, attribution: nil,
                                    etag: nil, lastModified: nil, lastSync: 0)
            let items = (0..<count).map { number in
                ItemRecord(itemID: "\(number)", position: number, title: "item \(number)", link: nil, published: Double(number % 7),
                           dateTaken: nil, author: nil, tags: [], description: description, mediaURL: nil, status: .noImage,
                           error: nil, sha256: nil)
            }
            try await index.replaceFeed(record, items: items)
        }
        try await feed("many", items: PagedFeed.pageItems + 44, description: "short")
        let long = String(repeating: "x", count: PagedFeed.heldBytesWhenWhole / 4)
        try await feed("long", items: 5, description: long)
        for (key, heldWhole) in [("many", true), ("long", false)] {
            let whole = try #require(try await PagedFeed.load(key: key, index: index, whole: true))
            let paged = try #require(try await PagedFeed.load(key: key, index: index))
            #expect(whole.isHeld == heldWhole, "\(key)")
            #expect(!paged.isHeld)
            let newest = try await paged.order(newestFirst: true)
            #expect(try await whole.order(newestFirst: true) == newest)
            for rowids in PagedFeed.pages(of: newest, size: 100) + [newest[...]] {
                let (fromWhole, fromPages) = (try await whole.page(rowids), try await paged.page(rowids))
                #expect(fromWhole.items == fromPages.items, "\(key)")
                #expect(fromWhole.counts == fromPages.counts, "\(key)")
            }
        }
    }

    private func expectSamePages(_ held: PagedFeed, _ paged: PagedFeed, newest: [Int64], named logo: String) async throws {
        #expect(try await held.order(newestFirst: true) == newest, "the held feed orders its items as the index does")
        #expect(try await held.order(newestFirst: false) == paged.order(newestFirst: false))
        for rowids in PagedFeed.pages(of: newest, size: 3) + [newest[...], []] {
            let (fromHeld, fromPages) = (try await held.page(rowids), try await paged.page(rowids))
            #expect(fromHeld.items == fromPages.items)
            #expect(fromHeld.counts == fromPages.counts)
            let named = Set(fromPages.items.flatMap { $0.allMedia.compactMap(\.sha256) } + [logo])
            for sha in named {
                #expect(fromHeld.paths[sha]?.original == fromPages.paths[sha]?.original, "\(sha)")
                #expect(fromHeld.paths[sha]?.thumbnails == fromPages.paths[sha]?.thumbnails, "\(sha)")
            }
            for url in fromPages.items.compactMap(\.mediaURL) {
                #expect(fromHeld.validators[url] == fromPages.validators[url], "\(url)")
            }
        }
    }
}
