import Foundation
import Testing
@testable import PMCache
@testable import PMImaging
@testable import PhotoMirror

/// `feeds/<key>/feed.json`: a JSON Feed 1.1 of the mirror, read back with a strict parser.
@Suite struct JSONFeedWriterTests {
    static let base = ThumbnailSize(width: 40, height: 40)
    static let hostile = "a\"b\\c\u{0}\u{1F}\n\r\t/é😀<script>&'\u{2028}z"

    static func paths(_ sha: String, ext: String = "jpg", original: Bool = true) -> StoredPaths {
        StoredPaths(original: original ? "originals/\(sha.prefix(2))/\(sha).\(ext)" : nil,
                    thumbnails: ["40x40": "thumbs/40x40/\(sha.prefix(2))/\(sha).png"])
    }

    static func item(_ id: String, position: Int, published: Double?, title: String = "t", link: String? = nil,
                     description: String? = nil, author: String? = nil, tags: [String] = [],
                     status: ItemStatus = .ok, sha: String? = nil, more: [MediaRecord] = []) -> ItemRecord {
        ItemRecord(itemID: id, position: position, title: title, link: link, published: published, dateTaken: nil,
                   author: author, tags: tags, description: description,
                   mediaURL: sha == nil && status != .ok ? nil : "https://m.example/\(id).jpg", status: status,
                   error: status == .failed ? "HTTP 404" : nil, sha256: sha, moreMedia: more)
    }

    static func feed() -> GalleryFeed {
        let record = FeedRecord(key: "k", url: "https://feed.example/rss?a=1&b=\"2\"", kind: "rss", title: hostile,
                                link: "https://feed.example/", attribution: "Data provided by Marvel. © 2026 MARVEL",
                                etag: nil, lastModified: nil, lastSync: 1_800_000_000,
                                imageURL: "https://feed.example/logo.png", imageSHA256: "logo")
        let items = [
            item("older", position: 0, published: 1_700_000_000, title: "Older", link: "https://feed.example/older",
                 description: "<p>\(hostile)</p>", author: "Jane", tags: ["x", hostile], sha: "aa01",
                 more: [MediaRecord(url: "https://m.example/2.png", source: "html", status: .ok, error: nil, sha256: "bb02"),
                        MediaRecord(url: "https://m.example/3.jpg", source: "html", status: .failed, error: "HTTP 500", sha256: nil),
                        MediaRecord(url: "https://m.example/4.jpg", source: "html", status: .evictedOriginal,
                                    error: nil, sha256: "dd04"),
                        MediaRecord(url: "https://m.example/5.webp", source: "html", status: .ok, error: nil, sha256: "ee05"),
                        MediaRecord(url: "https://m.example/6.jpg", source: "html", status: .ok, error: nil, sha256: "aa01")]),
            item("newer", position: 1, published: 1_800_000_000, title: "  Newer  ", link: "javascript:alert(1)",
                 description: "  \n ", sha: "cc03"),
            item("undated", position: 2, published: nil, title: "", status: .noImage),
            item("failed", position: 3, published: 1_750_000_000, title: "Failed", status: .failed),
            item("evicted", position: 4, published: 1_600_000_000, title: "Gone", status: .evicted, sha: "ff06"),
        ]
        return GalleryFeed(record: record, items: items, paths: [
            "logo": paths("logo", ext: "png"), "aa01": paths("aa01"), "bb02": paths("bb02", ext: "png"),
            "cc03": paths("cc03"), "dd04": paths("dd04", original: false), "ee05": paths("ee05", ext: "webp"),
        ])
    }

    static func parsed(_ feed: GalleryFeed) throws -> [String: Any] {
        let bytes = JSONFeedWriter.bytes(feed: feed, base: base)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func topLevelHasTheRequiredFieldsAndNoFeedURL() throws {
        let json = try Self.parsed(Self.feed())
        #expect(json["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect(json["title"] as? String == Self.hostile)
        #expect(json["home_page_url"] as? String == "https://feed.example/")
        #expect(json["feed_url"] == nil, "feed_url must be absolute, and the mirror's own URL is unknown")
        #expect(json["description"] as? String
            == "Mirrored by photomirror from https://feed.example/rss?a=1&b=\"2\". Data provided by Marvel. © 2026 MARVEL")
        #expect(json["icon"] as? String == "../../originals/lo/logo.png")
        #expect(json["favicon"] as? String == "../../thumbs/40x40/lo/logo.png")
        let custom = try #require(json["_photomirror"] as? [String: String])
        #expect(custom == ["source_feed_url": "https://feed.example/rss?a=1&b=\"2\"", "kind": "rss", "manifest": "manifest.json"])
        let text = String(decoding: JSONFeedWriter.bytes(feed: Self.feed(), base: Self.base), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": "), "version comes first, as the spec asks")
    }

    @Test func itemsAreNewestFirstWithUniqueStringIDsAndContent() throws {
        let items = try #require(try Self.parsed(Self.feed())["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["newer", "failed", "older", "evicted", "undated"],
                "the feed page's order: newest first, undated last")
        for item in items {
            #expect((item["content_html"] != nil) != (item["content_text"] != nil), "exactly one of them: \(item)")
        }
        let older = items[2], newer = items[0], undated = items[4]
        #expect(older["content_html"] as? String == "<p>\(Self.hostile)</p>", "HTML passes through, JSON-escaped")
        #expect(newer["content_text"] as? String == "Newer", "a blank description falls back to the title")
        #expect(newer["title"] as? String == "Newer")
        #expect(undated["content_text"] as? String == "", "still present when there is no title either")
        #expect(undated["title"] == nil && undated["date_published"] == nil && undated["url"] == nil)
        #expect(older["url"] as? String == "https://feed.example/older")
        #expect(newer["url"] == nil, "only http(s) links")
        #expect(older["date_published"] as? String == "2023-11-14T22:13:20Z")
        #expect(newer["date_published"] as? String == "2027-01-15T08:00:00Z")
        #expect(older["authors"] as? [[String: String]] == [["name": "Jane"]])
        #expect(newer["authors"] == nil && newer["tags"] == nil)
        #expect(older["tags"] as? [String] == ["x", Self.hostile])
    }

    @Test func imagesAreOnlyStoredOriginalsRelativeToTheFile() throws {
        let items = try #require(try Self.parsed(Self.feed())["items"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0["id"] as! String, $0) })
        let older = try #require(byID["older"])
        #expect(older["image"] as? String == "../../originals/aa/aa01.jpg")
        let attachments = try #require(older["attachments"] as? [[String: String]])
        #expect(attachments == [["url": "../../originals/bb/bb02.png", "mime_type": "image/png"],
                                ["url": "../../originals/ee/ee05.webp", "mime_type": "image/webp"]],
                "the failed and evicted images are left out, the repeated one is listed once")
        #expect(byID["newer"]?["image"] as? String == "../../originals/cc/cc03.jpg")
        #expect(byID["newer"]?["attachments"] == nil)
        for id in ["failed", "evicted", "undated"] {
            #expect(byID[id]?["image"] == nil && byID[id]?["attachments"] == nil, "\(id) has no image in the cache")
        }
        for link in items.compactMap({ $0["image"] as? String }) + attachments.compactMap({ $0["url"] }) {
            #expect(ReferenceCheck.resolve(link, from: "feeds/k")?.hasPrefix("originals/") == true, "\(link)")
        }
    }

    @Test func aFeedWithoutTitleLinkOrLogoStillHasATitle() throws {
        let record = FeedRecord(key: "k", url: "https://feed.example/x", kind: "atom", title: " ", link: "ftp://x",
                                attribution: nil, etag: nil, lastModified: nil, lastSync: 0)
        let json = try Self.parsed(GalleryFeed(record: record, items: [], paths: [:]))
        #expect(json["title"] as? String == "https://feed.example/x", "the gallery's title: the URL when there is none")
        #expect(json["home_page_url"] == nil && json["icon"] == nil && json["favicon"] == nil)
        #expect(json["description"] as? String == "Mirrored by photomirror from https://feed.example/x")
        #expect((json["items"] as? [Any])?.isEmpty == true)
    }

    @Test func largeFeedsArriveInBoundedPiecesThatMakeTheWhole() throws {
        let record = FeedRecord(key: "k", url: "https://f.example/", kind: "rss", title: "big", link: nil,
                                attribution: nil, etag: nil, lastModified: nil, lastSync: 0)
        let items = (0..<10_000).map { number in
            Self.item("\(number)", position: number, published: Double(number), title: "photo \(number)",
                      description: String(repeating: "d", count: 100), sha: "s\(number)")
        }
        let paths = Dictionary(uniqueKeysWithValues: items.map { ($0.sha256!, Self.paths($0.sha256!)) })
        let feed = GalleryFeed(record: record, items: items, paths: paths)
        var pieces: [[UInt8]] = []
        JSONFeedWriter.write(feed: feed, base: Self.base) { (piece: [UInt8]) -> Void in pieces.append(piece) }
        #expect(pieces.count > 10)
        #expect(pieces.allSatisfy { $0.count < ManifestWriter.pieceBytes + 2_000 })
        let whole = pieces.flatMap { $0 }
        #expect(whole == JSONFeedWriter.bytes(feed: feed, base: Self.base))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(whole)) as? [String: Any])
        let ids = (json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == (0..<10_000).reversed().map { "\($0)" })
    }

    @Test func theFeedPageOffersItToFeedReaders() {
        let feed = Self.feed()
        let page = FeedPage(feed: feed, items: feed.items[...], page: 1, pageCount: 1, base: Self.base).render().text
        let head = page.components(separatedBy: "</head>")[0]
        #expect(head.contains("<link rel=\"alternate\" type=\"application/feed+json\" title=\""
            + HTML.escape(Self.hostile) + "\" href=\"feed.json\">"))
        #expect(head.contains(PageShell.contentSecurityPolicy), "the policy still holds")
        #expect(!head.contains("<script"))
        let root = GalleryIndexPage(cards: [GalleryCardFile(GalleryCard(feed, base: Self.base), base: Self.base)]).render().text
        #expect(!root.contains("rel=\"alternate\""), "the root page lists several feeds, it is none of them")
    }
}
