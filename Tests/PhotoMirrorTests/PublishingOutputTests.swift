import Foundation
import Testing
@testable import PMImaging
@testable import PMCache
@testable import PMSupport
@testable import PhotoMirror

/// The byte writers behind pages and manifests: escaping, timestamps, links, and writes that
/// leave unchanged files alone.
@Suite struct PublishingOutputTests {
    static let hostile = "a\"b\\c\u{0}\u{1}\u{1F}\n\r\t\u{8}\u{C}/é😀<&>'\u{7F}"

    @Test(arguments: [0.0, 1.0, -1.0, 59.999, 951_782_400, 1_800_000_000.5, 4_102_444_800, -2_208_988_800])
    func timestampsMatchFoundationsISO8601(seconds: Double) {
        let expected = Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601)
        #expect(W3CTimestamp.format(seconds) == expected)
    }

    @Test func timestampsOutsideTheCalendarClampInsteadOfTrapping() {
        #expect(W3CTimestamp.format(.infinity) == "1970-01-01T00:00:00Z")
        #expect(W3CTimestamp.format(1e300) == "9999-12-31T23:59:59Z")
        #expect(W3CTimestamp.format(-1e300) == "0001-01-01T00:00:00Z")
    }

    @Test func jsonStringsRoundTripThroughAStrictParser() throws {
        var json = JSONBuffer()
        json.raw("[")
        json.string(Self.hostile)
        json.raw(",")
        json.string(nil)
        json.raw(",")
        json.stringArray(["x", Self.hostile])
        json.raw(",")
        json.stringObject(["b": "2", "a": Self.hostile])
        json.raw("]")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [Any])
        #expect(decoded[0] as? String == Self.hostile)
        #expect(decoded[1] is NSNull)
        #expect(decoded[2] as? [String] == ["x", Self.hostile])
        #expect(decoded[3] as? [String: String] == ["a": Self.hostile, "b": "2"])
        #expect(String(decoding: json.bytes, as: UTF8.self).contains(#"{"a": "#))
    }

    /// The eight-bytes-at-once scan finds the same first escaped byte as a byte loop, wherever
    /// it sits in a word and whatever surrounds it (UTF-8 lead and continuation bytes included).
    @Test func jsonEscapeScanAgreesWithAByteLoop() {
        let alphabet: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x61, 0x7F, 0x80, 0x9F,
                                 0xA2, 0xDC, 0xE2, 0xFF]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            // Mostly plain letters, so words without any escaped byte are common too.
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "q")
            }
            let start = Int.random(in: 0...count, using: &generator)
            let expected = bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            bytes.withUnsafeBufferPointer { #expect(JSONBuffer.firstEscaped(in: $0, from: start) == expected, "\(bytes) from \(start)") }
        }
    }

    @Test func manifestsDecodeToWhatTheIndexHolds() throws {
        let feed = FeedRecord(key: "k", url: "https://f.example/?a=1&b=\"2\"", kind: "rss", title: Self.hostile,
                              link: nil, attribution: "© someone", etag: nil, lastModified: nil, lastSync: 1_800_000_000)
        let items = [
            ItemRecord(itemID: "1", position: 0, title: "t", link: "https://x/1", published: 1_700_000_000,
                       dateTaken: nil, author: "a", tags: ["x", "y z"], description: Self.hostile,
                       mediaURL: "https://m/1.jpg", status: .ok, error: nil, sha256: "ab"),
            ItemRecord(itemID: "2", position: 1, title: "", link: nil, published: nil, dateTaken: 5, author: nil,
                       tags: [], description: nil, mediaURL: nil, status: .failed, error: "HTTP 404", sha256: nil),
        ]
        let paths = ["ab": StoredPaths(original: "originals/ab/ab.jpg",
                                       thumbnails: ["40x40": "thumbs/40x40/ab/ab.png", "80x80": "thumbs/80x80/ab/ab.png"])]
        let bytes = ManifestWriter.bytes(feed: feed, updatedAt: 1_800_000_000, items: items, paths: paths, primarySize: "40x40")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        #expect(manifest.url == feed.url && manifest.title == Self.hostile && manifest.kind == "rss")
        #expect(manifest.link == nil && manifest.attribution == "© someone")
        #expect(manifest.updatedAt == "2027-01-15T08:00:00Z")
        #expect(manifest.items.count == 2)
        let first = manifest.items[0]
        #expect(first.published == "2023-11-14T22:13:20Z" && first.dateTaken == nil)
        #expect(first.tags == ["x", "y z"] && first.description == Self.hostile && first.status == "ok")
        #expect(first.original == "originals/ab/ab.jpg" && first.thumbnail == "thumbs/40x40/ab/ab.png")
        #expect(first.thumbnails.count == 2)
        let second = manifest.items[1]
        #expect(second.status == "failed" && second.error == "HTTP 404" && second.sha256 == nil)
        #expect(second.thumbnails.isEmpty && second.thumbnail == nil && second.dateTaken == "1970-01-01T00:00:05Z")
    }

    @Test func largeManifestsArriveInBoundedPieces() throws {
        let feed = FeedRecord(key: "k", url: "https://f.example/", kind: "rss", title: "big", link: nil,
                              attribution: nil, etag: nil, lastModified: nil, lastSync: 0)
        let items = (0..<2000).map { number in
            ItemRecord(itemID: "\(number)", position: number, title: "photo \(number)", link: nil, published: nil,
                       dateTaken: nil, author: nil, tags: [], description: String(repeating: "d", count: 300),
                       mediaURL: nil, status: .noImage, error: nil, sha256: nil)
        }
        var pieces: [[UInt8]] = []
        ManifestWriter.write(feed: feed, updatedAt: 0, items: items, paths: [:], primarySize: "40x40") { pieces.append($0) }
        #expect(pieces.count > 5)
        #expect(pieces.allSatisfy { $0.count < ManifestWriter.pieceBytes + 2_000 })
        let whole = pieces.flatMap { $0 }
        #expect(whole == ManifestWriter.bytes(feed: feed, updatedAt: 0, items: items, paths: [:], primarySize: "40x40"))
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(whole))
        #expect(manifest.items.map(\.id) == items.map(\.itemID))
    }

    @Test func pageTextIsEscapedAndMarkupIsNot() {
        var page = HTMLBuffer()
        page.markup("<p title=\"")
        page.text(Self.hostile)
        page.markup("\">")
        page.number(-1234567890)
        page.number(0)
        page.markup("</p>")
        #expect(page.text == "<p title=\"a&quot;b\\c\u{0}\u{1}\u{1F}\n\r\t\u{8}\u{C}/é😀&lt;&amp;&gt;&#39;\u{7F}\">-12345678900</p>")
        #expect(HTML.escape(Self.hostile) == "a&quot;b\\c\u{0}\u{1}\u{1F}\n\r\t\u{8}\u{C}/é😀&lt;&amp;&gt;&#39;\u{7F}")
    }

    @Test func cachePathsBecomeRelativeLinksWithEverySegmentEncoded() {
        #expect(HTML.relativeLink("thumbs/40x40/ab/ab.png") == "thumbs/40x40/ab/ab.png")
        #expect(HTML.relativeLink("feeds/a b/é?#.html") == "feeds/a%20b/%C3%A9%3F%23.html")
        #expect(HTML.relativeLink("/abs//x") == "abs/x")
        #expect(HTML.relativeLink("") == "")
    }

    @Test func trimmingKeepsInnerSpaceAndHandlesUnicodeEnds() {
        #expect(HTML.trimmingWhitespace("  a b \n") == "a b")
        #expect(HTML.trimmingWhitespace("\u{A0}a\u{2028}") == "a")
        #expect(HTML.trimmingWhitespace(" \t ") == "")
        #expect(HTML.trimmingWhitespace("abc") == "abc")
        #expect(HTML.trimmingSpaces("\t x \n") == "x \n")
    }

    @Test func aWriterDroppedBeforeCommitLeavesNothingBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-out-\(UUID().uuidString)").path
        try AtomicFile.makeDirectories(folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AtomicFile.write(Array("old".utf8), to: folder + "/m.json")
        do {
            let writer = try AtomicFileWriter(path: folder + "/m.json")
            try writer.append(Array("new, half".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["m.json"])
        #expect(try String(contentsOfFile: folder + "/m.json", encoding: .utf8) == "old")
        let writer = try AtomicFileWriter(path: folder + "/m.json")
        try writer.append(Array("new, ".utf8))
        try writer.append(Array("whole".utf8))
        try writer.commit()
        #expect(try String(contentsOfFile: folder + "/m.json", encoding: .utf8) == "new, whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["m.json"])
    }

    @Test func unchangedFilesAreNotRewritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-out-\(UUID().uuidString)").path
        try AtomicFile.makeDirectories(folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/page.html"
        #expect(try AtomicFile.writeIfChanged(Array("one".utf8), to: path))
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        #expect(try AtomicFile.writeIfChanged(Array("one".utf8), to: path) == false)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        #expect(try AtomicFile.writeIfChanged(Array("two".utf8), to: path))
        #expect(try AtomicFile.writeIfChanged(Array("twenty".utf8), to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "twenty")
    }

    @Test func documentsWrittenInPiecesReplaceTheFileOnlyWhenTheirBytesDiffer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-out-\(UUID().uuidString)").path
        try AtomicFile.makeDirectories(folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/feed.json"
        func rewrite(_ pieces: [String]) throws -> Bool {
            let file = AtomicFileRewriter(path: path)
            for piece in pieces { try file.append(Array(piece.utf8)) }
            return try file.commit()
        }
        func inode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int }
        let long = String(repeating: "0123456789", count: 20_000)
        #expect(try rewrite(["", "abc", long]), "no file yet")
        let first = try inode()
        #expect(try rewrite(["ab", "c" + long.prefix(70_000), String(long.dropFirst(70_000))]) == false,
                "the same bytes in other pieces")
        #expect(try inode() == first, "left as it was")
        #expect(try rewrite(["abc", String(long.dropLast()) + "X"]), "differs at the very end")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abc" + long.dropLast() + "X",
                "the equal prefix is copied from the old file")
        #expect(try rewrite(["abc", String(long.dropLast()) + "X", "more"]), "longer")
        #expect(try rewrite(["abc"]), "shorter")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abc")
        #expect(try rewrite([]), "empty")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
        #expect(try rewrite([]) == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["feed.json"], "no temp file left")
    }
}

/// The digest that lets a sync leave an unchanged feed's files alone.
@Suite struct FeedContentTests {
    let record = FeedRecord(key: "k", url: "https://f.example/", kind: "rss", title: "t", link: nil,
                            attribution: nil, etag: nil, lastModified: nil, lastSync: 1)
    func item(_ id: String, title: String = "a", description: String? = nil, tags: [String] = []) -> ItemRecord {
        ItemRecord(itemID: id, position: 0, title: title, link: nil, published: 5, dateTaken: nil, author: nil,
                   tags: tags, description: description, mediaURL: "https://m/\(id).jpg", status: .ok, error: nil,
                   sha256: "ab")
    }

    @Test func onlyWhatThePagesShowChangesTheDigest() {
        let sizes = [ThumbnailSize(width: 40, height: 40)]
        let base = FeedContent.digest(record: record, items: [item("1")], sizes: sizes)
        var synced = record
        synced.lastSync = 99
        synced.etag = "\"v2\""
        #expect(FeedContent.digest(record: synced, items: [item("1")], sizes: sizes) == base)
        var renamed = record
        renamed.title = "u"
        #expect(FeedContent.digest(record: renamed, items: [item("1")], sizes: sizes) != base)
        #expect(FeedContent.digest(record: record, items: [item("1", title: "b")], sizes: sizes) != base)
        #expect(FeedContent.digest(record: record, items: [item("1")], sizes: sizes + [ThumbnailSize(width: 80, height: 80)]) != base)
        #expect(FeedContent.digest(record: record, items: [item("1"), item("2")], sizes: sizes) != base)
    }

    @Test func fieldBoundariesAndNilAreTold() {
        let sizes = [ThumbnailSize(width: 40, height: 40)]
        let digests = [
            FeedContent.digest(record: record, items: [item("1", title: "ab", description: "c")], sizes: sizes),
            FeedContent.digest(record: record, items: [item("1", title: "a", description: "bc")], sizes: sizes),
            FeedContent.digest(record: record, items: [item("1", title: "a", description: "")], sizes: sizes),
            FeedContent.digest(record: record, items: [item("1", title: "a", description: nil)], sizes: sizes),
            FeedContent.digest(record: record, items: [item("1", tags: ["x", "y"])], sizes: sizes),
            FeedContent.digest(record: record, items: [item("1", tags: ["xy"])], sizes: sizes),
        ]
        #expect(Set(digests).count == digests.count)
    }
}
