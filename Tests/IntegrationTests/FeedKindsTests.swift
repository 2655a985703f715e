import Foundation
import XCTest

/// Every feed kind, synced by the real binary from a local server.
final class FeedKindsTests: XCTestCase {
    /// A Marvel API of 45 characters in pages of 20 (one an `image_not_available` placeholder),
    /// whose server refuses any request not signed with the keys.
    func testMarvelPagesAreFollowedAndEveryRequestIsSigned() throws {
        let photos = try Paths.photos(count: 4)
        let site = try FeedSite(photos: photos)
        let resultsFile = site.root.deletingLastPathComponent().appendingPathComponent("marvel.json")
        let server = try FixtureServer(root: site.root, arguments: [
            "--marvel", resultsFile.path, "--marvel-keys", "pub123:priv456",
        ])
        defer { server.stop() }
        try writeMarvelCharacters(count: 45, placeholderAt: 7, photos: site.photoNames, port: server.port, to: resultsFile)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        var photomirror = Photomirror()
        photomirror.environment = ["MARVEL_PUBLIC_KEY": "pub123", "MARVEL_PRIVATE_KEY": "priv456"]
        let feedURL = server.url("v1/public/characters?limit=20")

        let result = try photomirror.run(["sync", "--json", "--cache", cache.path, feedURL])
        XCTAssertEqual(result.status, 0, "a placeholder is the feed's answer, not a failure\n\(result.stderr)")
        let feed = try CacheInspection.firstFeed(fromSummary: result.stdout)
        XCTAssertEqual(feed["items"] as? Int, 45)
        XCTAssertEqual(feed["ok"] as? Int, 44)
        XCTAssertEqual(feed["no_image"] as? Int, 1)
        XCTAssertEqual(feed["downloaded"] as? Int, 4, "44 items share 4 images: each fetched once")

        let pages = server.requests.filter { $0.hasPrefix("GET /v1/public/characters") }
        XCTAssertEqual(pages.count, 3, "\(pages)")
        XCTAssertTrue(pages.allSatisfy { $0.hasSuffix(" 200") && $0.contains("hash=") && $0.contains("apikey=pub123") })
        XCTAssertTrue(pages.contains { $0.contains("offset=40") })

        let manifestText = try String(contentsOf: cache.appendingPathComponent(feed["manifest"] as! String), encoding: .utf8)
        XCTAssertTrue(manifestText.contains("Data provided by Marvel"))
        let statuses = try CacheInspection.manifestItems(cache: cache, feed: feed).compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses.filter { $0 == "no-image" }.count, 1, "\(statuses)")
        XCTAssertFalse(CacheInspection.cache(cache, contains: "priv456"), "the private key never reaches the cache")
        XCTAssertFalse(CacheInspection.cache(cache, contains: "hash="), "signatures never reach the cache")
        XCTAssertFalse(result.stderr.contains("priv456"))
    }

    func testUnsignedMarvelRequestIsAFeedError() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 1))
        let resultsFile = site.root.deletingLastPathComponent().appendingPathComponent("marvel.json")
        let server = try FixtureServer(root: site.root, arguments: [
            "--marvel", resultsFile.path, "--marvel-keys", "pub123:priv456",
        ])
        defer { server.stop() }
        try writeMarvelCharacters(count: 3, placeholderAt: nil, photos: site.photoNames, port: server.port, to: resultsFile)
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let result = try Photomirror().run(["sync", "--cache", cache.path, server.url("v1/public/characters")])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("401"), result.stderr)
    }

    /// RSS 2.0 (Media RSS and enclosure), Atom (relative enclosure links) and JSON Feed in one
    /// run: images they share are downloaded once, each feed has its own manifest.
    func testRSSAtomAndJSONFeedShareOneDownloadPool() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 3))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        let names = site.photoNames
        let base = "http://127.0.0.1:\(server.port)"
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel><title>RSS &amp; photos</title><link>https://example.org/</link>
        <item><title>First</title><link>https://example.org/1</link><guid>r1</guid>
          <pubDate>Sat, 07 Nov 2026 10:00:00 GMT</pubDate>
          <media:content url="\(base)/photos/\(names[0])" medium="image" type="image/jpeg"/></item>
        <item><title><![CDATA[Second <b>bold</b>]]></title><link>https://example.org/2</link><guid>r2</guid>
          <pubDate>Sun, 08 Nov 2026 10:00:00 +0100</pubDate>
          <enclosure url="\(base)/photos/\(names[1])" length="1" type="image/jpeg"/></item>
        </channel></rss>
        """.utf8).write(to: site.root.appendingPathComponent("feed.rss"))
        try Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom photos</title><id>urn:a</id>
        <updated>2026-11-08T10:00:00Z</updated>
        <entry><title>One</title><id>urn:a:1</id><updated>2026-11-08T10:00:00Z</updated>
          <link rel="alternate" href="/posts/1"/><link rel="enclosure" type="image/jpeg" href="photos/\(names[1])"/></entry>
        <entry><title>Two</title><id>urn:a:2</id><updated>2026-11-07T10:00:00+02:00</updated>
          <link rel="enclosure" type="image/jpeg" href="/photos/\(names[2])"/></entry>
        </feed>
        """.utf8).write(to: site.root.appendingPathComponent("feed.atom"))
        try Data("""
        {"version": "https://jsonfeed.org/version/1.1", "title": "JSON photos", "home_page_url": "https://example.org/",
         "items": [
          {"id": "j1", "title": "J one", "url": "https://example.org/j1", "date_published": "2026-11-06T10:00:00Z",
           "image": "\(base)/photos/\(names[0])", "tags": ["x"]},
          {"id": "j2", "content_text": "no title", "attachments": [
             {"url": "\(base)/photos/\(names[2])", "mime_type": "image/jpeg"}]}
         ]}
        """.utf8).write(to: site.root.appendingPathComponent("feed.json"))
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")

        let result = try Photomirror().run(["sync", "--json", "--cache", cache.path,
                                            server.url("feed.rss"), server.url("feed.atom"), server.url("feed.json")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let feeds = try CacheInspection.feeds(fromSummary: result.stdout)
        XCTAssertEqual(feeds.map { $0["kind"] as? String }, ["rss", "atom", "jsonFeed"])
        XCTAssertEqual(feeds.map { $0["ok"] as? Int }, [2, 2, 2])
        XCTAssertEqual(Set(feeds.compactMap { $0["manifest"] as? String }).count, 3)
        for name in names {
            XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET /photos/\(name) ") }.count, 1, "\(name) fetched once")
        }
        let originals = FileManager.default.enumerator(atPath: cache.appendingPathComponent("originals").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(originals?.count, 3)
        let gallery = try String(contentsOf: cache.appendingPathComponent("index.html"), encoding: .utf8)
        for title in ["RSS &amp; photos", "Atom photos", "JSON photos"] { XCTAssertTrue(gallery.contains(title), title) }
        XCTAssertEqual(try Photomirror().run(["verify", "--cache", cache.path]).status, 0)
    }

    // MARK: helpers

    private func writeMarvelCharacters(count: Int, placeholderAt: Int?, photos: [String], port: Int, to file: URL) throws {
        var results: [[String: Any]] = []
        for number in 0..<count {
            let stem = (photos[number % photos.count] as NSString).deletingPathExtension
            let path = number == placeholderAt
                ? "http://127.0.0.1:\(port)/images/b/40/image_not_available"
                : "http://127.0.0.1:\(port)/photos/\(stem)"
            results.append([
                "id": 1_009_000 + number, "name": "Hero \(number)", "description": number % 3 == 0 ? "" : "Hero number \(number)",
                "modified": number % 5 == 0 ? "1969-12-31T19:00:00-0500" : "2014-04-29T14:18:17-0400",
                "thumbnail": ["path": path, "extension": "jpg"], "resourceURI": "http://127.0.0.1:\(port)/v1/public/characters/\(number)",
                "urls": [["type": "detail", "url": "http://marvel.com/characters/\(number)"]],
            ])
        }
        try JSONSerialization.data(withJSONObject: results).write(to: file)
    }
}

extension FeedKindsTests {
    /// Flickr REST `photos.search`: `--pages 2` follows `page`/`pages`, a direct `url_*` extra is
    /// preferred, and `total` arrives as a string.
    func testFlickrSearchFollowsPagesWhenAsked() throws {
        let site = try FeedSite(photos: try Paths.photos(count: 4))
        let server = try FixtureServer(root: site.root)
        defer { server.stop() }
        for page in 1...3 {
            let photos = (0..<2).map { offset -> String in
                let number = (page - 1) * 2 + offset
                let name = site.photoNames[number % site.photoNames.count]
                return """
                {"id": "\(5000 + number)", "owner": "1@N00", "secret": "abc", "server": "65535", "farm": 66,
                 "title": "search \(number)", "ispublic": 1, "isfriend": 0, "isfamily": 0,
                 "url_m": "http://127.0.0.1:\(server.port)/photos/\(name)", "height_m": "500", "width_m": "333"}
                """
            }
            try Data("""
            {"photos": {"page": \(page), "pages": 3, "perpage": 2, "total": "6", "photo": [\(photos.joined(separator: ","))]}, "stat": "ok"}
            """.utf8).write(to: site.root.appendingPathComponent("rest-page-\(page).json"))
        }
        let cache = try Paths.temporaryFolder().appendingPathComponent("cache")
        let feedURL = server.url("services/rest/?method=flickr.photos.search&tags=x&extras=url_m&format=json&nojsoncallback=1")
        let result = try Photomirror().run(["sync", "--json", "--pages", "2", "--cache", cache.path, feedURL])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"items\" : 4"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"kind\" : \"flickrSearch\""), result.stdout)
        let pages = server.requests.filter { $0.hasPrefix("GET /services/rest/") }
        XCTAssertEqual(pages.count, 2, "\(pages)")
        XCTAssertTrue(pages[1].contains("page=2"))
    }
}
