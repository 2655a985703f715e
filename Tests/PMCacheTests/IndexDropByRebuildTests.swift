import Foundation
import Testing
@testable import PMCache

/// A drop of a quarter or more of the originals rebuilds `originals` and `resources` from the
/// rows they keep (`PhotoIndex+DropByRebuild.swift`); a smaller one deletes row by row. Both
/// must leave the same rows, and find the same feeds.
@Suite struct IndexDropByRebuildTests {
    /// A canonical image hash (64 hex digits), so the drop can match it packed.
    static func hash(_ number: Int) -> String {
        String(repeating: "0", count: 60) + String(format: "%04x", number)
    }

    /// Feed "a" lists images 0-5, feed "b" lists 5-10 (5 is shared) and has image 11 as its
    /// logo; an item of "b" not settled yet names image 9's URL, and one of "a" a URL never stored.
    func makeIndex() async throws -> PhotoIndex {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-rebuild-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let index = try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
        for number in 0..<12 { try await index.recordTestImage(Self.hash(number)) }
        for (key, numbers) in [("a", Array(0...5)), ("b", Array(5...10))] {
            let logo = key == "b" ? Self.hash(11) : nil
            let feed = FeedRecord(key: key, url: "https://feed/\(key)", kind: "rss", title: key, link: nil, attribution: nil,
                                  etag: nil, lastModified: nil, lastSync: 10, imageURL: logo.map { "https://img/\($0)" },
                                  imageSHA256: logo)
            var items = numbers.map { number in
                ItemRecord(itemID: "\(number)", position: number, title: "\(number)", link: nil, published: nil, dateTaken: nil,
                           author: nil, tags: [], description: nil, mediaURL: "https://img/\(Self.hash(number))", status: .ok,
                           error: nil, sha256: Self.hash(number))
            }
            let unsettled = key == "b" ? "https://img/\(Self.hash(9))" : "https://img/never"
            items.append(ItemRecord(itemID: "u", position: 99, title: "u", link: nil, published: nil, dateTaken: nil, author: nil,
                                    tags: [], description: nil, mediaURL: unsettled, status: .failed, error: "stopped",
                                    sha256: nil))
            try await index.replaceFeed(feed, items: items)
        }
        return index
    }

    /// Everything a drop may change, read back plainly.
    struct Rows: Equatable {
        var originals: [String]
        var urls: [String: String]
        var thumbnails: Int
        var statuses: [String: String]
    }

    func rows(_ index: PhotoIndex) async throws -> Rows {
        let files = try await index.allFiles()
        var statuses: [String: String] = [:]
        for key in ["a", "b"] {
            for item in try await index.items(feedKey: key) { statuses["\(key)/\(item.itemID)"] = item.status.rawValue }
        }
        return Rows(originals: files.originals.map { $0.sha256.description }.sorted(), urls: try await index.urlRows(),
                    thumbnails: files.thumbnails.count, statuses: statuses)
    }

    @Test func aLargeDropLeavesTheRowsThatDroppingOneAtATimeLeaves() async throws {
        let doomed = [0, 1, 2, 5, 9, 11].map { ImageHash(Self.hash($0)) }
        let whole = try await makeIndex()
        let found = try await whole.dropRows(originals: doomed, thumbnails: []).feedKeys
        let single = try await makeIndex()
        var foundSingly = Set<String>()
        for hash in doomed {
            // One of twelve or fewer: each below a quarter of what is left, so deleted row by row.
            foundSingly.formUnion(try await single.dropRows(originals: [hash], thumbnails: []).feedKeys)
        }
        #expect(found == ["a", "b"])
        #expect(foundSingly == found)
        let after = try await rows(whole)
        #expect(after == (try await rows(single)))
        #expect(after.originals == [3, 4, 6, 7, 8, 10].map(Self.hash))
        #expect(after.thumbnails == 24, "an evicted original keeps its thumbnails")
        #expect(after.urls["https://img/\(Self.hash(9))"] == Self.hash(9), "an unsettled item still finds its image by URL")
        #expect(after.urls["https://img/\(Self.hash(0))"] == nil && after.urls["https://img/\(Self.hash(11))"] == nil)
        #expect(after.urls.count == 7)
        #expect(after.statuses["a/0"] == "evicted-original" && after.statuses["b/5"] == "evicted-original")
        #expect(after.statuses["a/3"] == "ok")
        #expect(try await whole.integrityProblems(deep: true).isEmpty)
        #expect(try await whole.tableNames().contains("rebuild_kept") == false)
    }

    @Test func aLargeDropTakesTheFeedsItIsGiven() async throws {
        let index = try await makeIndex()
        let given: Set<String> = ["a"]
        let found = try await index.dropRows(originals: [0, 1, 2].map { ImageHash(Self.hash($0)) }, thumbnails: [], feedKeys: given)
        #expect(found.feedKeys == given)
        #expect(try await index.owedDocuments() == given)
    }

    @Test func onlyCanonicalHashesAreMatchedPacked() {
        #expect(HashMembership(["x"]) == nil)
        let set = HashMembership([ImageHash(Self.hash(2)), ImageHash(Self.hash(1))])
        for (text, expected) in [(Self.hash(1), true), (Self.hash(2), true), (Self.hash(3), false), ("x", false), ("", false)] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { set?.contains(hex: UnsafeBufferPointer($0)) } == expected, "\(text)")
        }
    }

    /// Members are found by their first two bytes, then searched among those: hashes at both
    /// ends of that range, several with the same two bytes, and their near misses.
    @Test func membershipHoldsAcrossAndWithinFirstTwoBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2000).map { _ in (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined() }
        let edges = ["0000", "0000", "0001", "7fff", "8000", "fffe", "ffff", "ffff"].enumerated().map { number, prefix in
            prefix + String(repeating: "0", count: 56) + String(format: "%04x", number)
        }
        let members = random.prefix(1000) + edges
        let set = try #require(HashMembership(members.map { ImageHash($0) }))
        let neighbours = edges.map { String($0.dropLast()) + "f" } + ["0" + String(repeating: "0", count: 63),
                                                                      String(repeating: "f", count: 64)]
        for (text, expected) in members.map({ ($0, true) }) + (random.suffix(1000) + neighbours).map({ ($0, Set(members).contains($0)) }) {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { set.contains(hex: UnsafeBufferPointer($0)) } == expected, "\(text)")
        }
    }
}

extension PhotoIndex {
    /// Every URL row's hash, by URL.
    func urlRows() throws(IndexError) -> [String: String] {
        let query = try connection.statement("SELECT url, sha256 FROM resources")
        var rows: [String: String] = [:]
        while try query.step() { rows[query.text(0) ?? ""] = query.text(1) ?? "" }
        return rows
    }

    func tableNames() throws(IndexError) -> Set<String> {
        let query = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names = Set<String>()
        while try query.step() { if let name = query.text(0) { names.insert(name) } }
        return names
    }
}
