import Foundation
import XCTest

/// Issue 24 end to end: the images libheif, giflib and libjpeg/libpng used to refuse or render
/// wrong (an avis-only AVIF sequence, YCgCo-Re, monochrome, empty GIF comments, LZW code size 11,
/// orientation as LONG/SLONG, a lossy WebP with alpha) and damaged JPEGs and PNGs of which
/// browsers show what decodes, mirrored by a sync from 127.0.0.1 and thumbnailed by `thumb`:
/// every one is `ok`; each damaged one carries its decoder's warning in the manifest (per image,
/// kept by later syncs, by other feeds naming it and by an index rebuilt from the manifests) and
/// on stderr, and no whole one does.
final class DecodingCasesSyncTests: XCTestCase {
    static let whole = [
        "generated/kodim03-avis-only.avif", "generated/kodim03-ycgco-re.avif", "generated/kodim03-grey-limited.avif",
        "generated/kodim03-grey-full-10bit.avif", "av1-avif/fox.profile0.8bpc.yuv420.monochrome.avif",
        "pillow/hopper_zero_comment_subblocks.gif", "pillow/issue_2811.gif", "generated/kodim03-orientation6-slong.jpg",
        "generated/kodim03-orientation8-long.webp", "generated/kodim03-alpha-lossy.webp",
    ]
    /// (corpus file, the start of its warning)
    static let damaged = [
        ("generated/kodim03-bad-huffman.jpg", "JPEG: Corrupt JPEG data: bad Huffman code (from row 96 of 128 on"),
        ("generated/kodim03-segment-cut.jpg", "JPEG: Corrupt JPEG data: premature end of data segment (from row 64"),
        ("generated/kodim03-truncated.jpg", "JPEG: Premature end of JPEG file (from row 64 of 128 on"),
        ("generated/kodim03-idat-crc.png", "PNG: IDAT: CRC error (its data was used)"),
        ("generated/kodim03-idat-broken.png", "PNG: bad adaptive filter value: 65 of 128 rows decoded"),
    ]
    static var files: [String] { whole + damaged.map(\.0) }

    func testDecodingCasesAreMirroredAndDamageIsReportedEverywhere() throws {
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Images")
        let site = try Paths.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("media"), withIntermediateDirectories: true)
        for (number, file) in Self.files.enumerated() {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(file),
                                             to: site.appendingPathComponent("media/case\(number)"))
        }
        let server = try FixtureServer(root: site)
        defer { server.stop() }
        let feedSite = FeedSite(root: site)
        func writeFeed(_ name: String, numbers: [Int]) throws {
            try feedSite.writeFlickrFeed(at: name, items: numbers.map { number in
                FeedSite.Item(title: "case \(number)", media: server.url("media/case\(number)"),
                              link: "https://www.flickr.com/photos/tester/\(90000 + number)/")
            })
        }
        let all = Array(Self.files.indices)
        try writeFeed("feed.json", numbers: all)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let photomirror = Photomirror()

        let sync = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.json")])
        XCTAssertEqual(sync.status, 0, "every case is mirrored:\n\(sync.stderr)")
        let feed = try CacheInspection.firstFeed(fromSummary: sync.stdout)
        XCTAssertEqual(feed["ok"] as? Int, Self.files.count, sync.stdout)
        for (number, file) in Self.files.enumerated() {
            let expected = Self.damaged.first { $0.0 == file }?.1
            let line = sync.stderr.split(separator: "\n").first { $0.hasPrefix("warning: \(server.url("media/case\(number)")): ") }
            if let expected {
                XCTAssertTrue(line?.contains(expected) == true, "\(file): \(sync.stderr)")
            } else {
                XCTAssertNil(line, file)
            }
        }
        try assertWarnings(cache: cache, feed: feed, context: "first sync")

        // The same images named by another feed: reused, not decoded again, and still reported.
        try writeFeed("other.json", numbers: all.reversed())
        let other = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("other.json")])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertFalse(other.stderr.contains("warning:"), "nothing decoded: \(other.stderr)")
        try assertWarnings(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: other.stdout), context: "another feed")

        // An index rebuilt from the manifests keeps them; the next change of the feed rewrites its
        // manifest from that index.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache.path + "/index.sqlite" + suffix) }
        let repair = try photomirror.run(["verify", "--repair", "--cache", cache.path])
        XCTAssertEqual(repair.status, 0, repair.stderr)
        try writeFeed("feed.json", numbers: all.dropLast())
        let again = try photomirror.run(["sync", "--json", "--cache", cache.path, server.url("feed.json")])
        XCTAssertEqual(again.status, 0, again.stderr)
        try assertWarnings(cache: cache, feed: try CacheInspection.firstFeed(fromSummary: again.stdout), context: "rebuilt index")

        let verify = try photomirror.run(["verify", "--cache", cache.path])
        XCTAssertEqual(verify.status, 0, verify.stderr)
    }

    /// Each item of the feed's manifest is `ok`; a damaged image's item and its `media` entry say
    /// its warning, a whole one's have no `warning` key.
    private func assertWarnings(cache: URL, feed: [String: Any], context: String) throws {
        let items = try CacheInspection.manifestItems(cache: cache, feed: feed)
        XCTAssertFalse(items.isEmpty, context)
        for item in items {
            let title = try XCTUnwrap(item["title"] as? String)
            let number = try XCTUnwrap(Int(title.replacingOccurrences(of: "case ", with: "")))
            let file = Self.files[number]
            XCTAssertEqual(item["status"] as? String, "ok", "\(context): \(file): \(item)")
            let media = try XCTUnwrap((item["media"] as? [[String: Any]])?.first, "\(context): \(file)")
            if let expected = Self.damaged.first(where: { $0.0 == file })?.1 {
                XCTAssertTrue((item["warning"] as? String)?.hasPrefix(expected) == true, "\(context): \(file): \(item)")
                XCTAssertEqual(media["warning"] as? String, item["warning"] as? String, "\(context): \(file)")
            } else {
                XCTAssertNil(item["warning"], "\(context): \(file)")
                XCTAssertNil(media["warning"], "\(context): \(file)")
            }
        }
    }

    /// `thumb` makes a thumbnail of each and prints a `warning:` line for the damaged ones only;
    /// exit 0, as nothing failed.
    func testThumbWarnsAboutDamagedFilesAndMakesTheirThumbnails() throws {
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Images")
        let output = try Paths.temporaryFolder().appendingPathComponent("thumbs")
        let inputs = Self.files.map { corpus.appendingPathComponent($0).path }
        let result = try Photomirror().run(["thumb", "-o", output.path] + inputs)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, Self.damaged.count, result.stderr)
        for (file, expected) in Self.damaged {
            XCTAssertTrue(lines.contains { $0.hasPrefix("warning: \(corpus.appendingPathComponent(file).path): \(expected)") },
                          "\(file): \(result.stderr)")
        }
        for input in inputs {
            let thumbnail = output.appendingPathComponent(((input as NSString).lastPathComponent as NSString)
                .deletingPathExtension + ".png")
            XCTAssertTrue(FileManager.default.fileExists(atPath: thumbnail.path), input)
        }
    }
}
