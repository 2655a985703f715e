import Foundation
import XCTest

/// What any server of a cache must do, checked the same way against `photomirror serve` and
/// nginx with Scripts/nginx.conf.template: MIME types, caching headers, ETag/304, HEAD, Range,
/// 404s, and nothing private or outside the cache.
struct StaticServerContract {
    let port: Int
    let cache: SyncedCache

    func get(_ path: String, _ headers: [String: String] = [:]) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, "GET", path, headers: headers)
    }

    func checkAll(file: StaticString = #filePath, line: UInt = #line) throws {
        let files = try cache.firstItemFiles()
        let original = try Data(contentsOf: cache.root.appendingPathComponent(files.original))

        // Types and caching: content-addressed files are immutable, pages and manifests short-lived.
        let image = try get("/" + files.original)
        XCTAssertEqual(image.status, 200, file: file, line: line)
        XCTAssertEqual(image.header("Content-Type"), "image/jpeg", file: file, line: line)
        XCTAssertEqual(image.header("Cache-Control"), "public, max-age=31536000, immutable", file: file, line: line)
        XCTAssertEqual(Data(image.body), original, file: file, line: line)
        let thumbnail = try get("/" + files.thumbnail)
        XCTAssertEqual(thumbnail.header("Content-Type"), "image/png", file: file, line: line)
        XCTAssertEqual(thumbnail.header("Cache-Control"), "public, max-age=31536000, immutable", file: file, line: line)
        for (path, type) in [("/", "text/html"), ("/index.html", "text/html"), ("/" + files.manifest, "application/json")] {
            let page = try get(path)
            XCTAssertEqual(page.status, 200, path, file: file, line: line)
            XCTAssertTrue(page.header("Content-Type")?.hasPrefix(type) == true, "\(path): \(page.headers)", file: file, line: line)
            XCTAssertEqual(page.header("Cache-Control"), "public, max-age=60", path, file: file, line: line)
        }

        // ETag and 304, for an immutable file and a page.
        for path in ["/" + files.original, "/index.html"] {
            let tag = try XCTUnwrap(try get(path).header("ETag"), path, file: file, line: line)
            let again = try get(path, ["If-None-Match": tag])
            XCTAssertEqual(again.status, 304, path, file: file, line: line)
            XCTAssertTrue(again.body.isEmpty, file: file, line: line)
            XCTAssertEqual(try get(path, ["If-None-Match": "\"other\""]).status, 200, file: file, line: line)
        }

        // HEAD: the headers of a GET, no body.
        let head = try RawHTTP.request(port: port, "HEAD", "/" + files.original)
        XCTAssertEqual(head.status, 200, file: file, line: line)
        XCTAssertEqual(head.header("Content-Length"), String(original.count), file: file, line: line)
        XCTAssertEqual(head.header("Content-Type"), "image/jpeg", file: file, line: line)
        XCTAssertTrue(head.body.isEmpty, file: file, line: line)

        // Ranges.
        let part = try get("/" + files.original, ["Range": "bytes=100-199"])
        XCTAssertEqual(part.status, 206, file: file, line: line)
        XCTAssertEqual(part.header("Content-Range"), "bytes 100-199/\(original.count)", file: file, line: line)
        XCTAssertEqual(Data(part.body), original[100..<200], file: file, line: line)
        let tail = try get("/" + files.original, ["Range": "bytes=-10"])
        XCTAssertEqual(Data(tail.body), original.suffix(10), file: file, line: line)
        let past = try get("/" + files.original, ["Range": "bytes=\(original.count)-"])
        XCTAssertEqual(past.status, 416, file: file, line: line)
        XCTAssertEqual(past.header("Content-Range"), "bytes */\(original.count)", file: file, line: line)

        // Missing, private, listings and escapes: never a 2xx, never a byte of what lies outside.
        let refused = ["/nope.png", "/originals/00/" + String(repeating: "0", count: 64) + ".jpg", "/index.sqlite",
                       "/lock", "/space-reserve", "/originals/", "/thumbs/", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                       "/feeds/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/feeds%2f..%2f..%2f..%2fetc/passwd",
                       "/thumbs/escape.png", "/feeds/escape/passwd", "/thumbs/index-link.png", "/.tmp-partial.png"]
        for path in refused {
            let response = try get(path)
            XCTAssertTrue((400..<500).contains(response.status), "\(path) → \(response.status)", file: file, line: line)
            let body = String(decoding: response.body, as: UTF8.self)
            XCTAssertFalse(body.contains("root:x:0:0") || body.contains("SQLite format"), path, file: file, line: line)
        }
        XCTAssertEqual(try get("/nope.png").status, 404, file: file, line: line)
        XCTAssertEqual(try get("/originals/").status, 404, "no listing", file: file, line: line)

        // Every kind of file the gallery publishes, as its type.
        let feedFolder = files.manifest.replacingOccurrences(of: "/manifest.json", with: "")
        let published = [("/favicon.svg", "image/svg+xml"), ("/\(feedFolder)/feed.json", "application/json"),
                         ("/\(feedFolder)/card.json", "application/json"), ("/\(feedFolder)/", "text/html"),
                         ("/" + Self.webpOriginal, "image/webp")] + Self.thumbnailVariants.map { ("/" + $0.path, $0.type) }
        for (path, type) in published {
            let response = try get(path)
            XCTAssertEqual(response.status, 200, path, file: file, line: line)
            XCTAssertTrue(response.header("Content-Type")?.hasPrefix(type) == true, "\(path): \(response.headers)",
                          file: file, line: line)
        }
        // Nothing else in the folder, though its name has a type: settings (which may name a
        // bucket), the sync state, stray files, and names photomirror never writes.
        let unpublished = ["/config.json", "/.sync-state.json", "/notes.txt", "/extras/a.css", "/extras/a.js",
                     "/\(feedFolder)/notes.json", "/\(feedFolder)/page-1.html", "/feeds/config.json",
                     "/originals/ee/not-a-hash.jpg", "/originals/ff/" + String(repeating: "ee", count: 32) + ".webp",
                     "/thumbs/big/ee/" + String(repeating: "ee", count: 32) + ".png"] + Self.offVariants.map { "/" + $0 }
        for path in unpublished {
            let response = try get(path)
            XCTAssertEqual(response.status, 404, path, file: file, line: line)
            XCTAssertFalse(String(decoding: response.body, as: UTF8.self).contains("987654321"), path, file: file, line: line)
        }

        // Validators: Last-Modified with If-Modified-Since, and If-Match; each checked on its own.
        for path in ["/" + files.original, "/index.html"] {
            let first = try get(path)
            let modified = first.header("Last-Modified")
            XCTAssertNotNil(modified.flatMap(HTTPDateForm.parse), "\(path): Last-Modified \(modified ?? "missing")",
                            file: file, line: line)
            if let modified {
                XCTAssertEqual(try get(path, ["If-Modified-Since": modified]).status, 304, path, file: file, line: line)
            }
            XCTAssertEqual(try get(path, ["If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"]).status, 200, path,
                           file: file, line: line)
            XCTAssertEqual(try get(path, ["If-Match": "\"other\""]).status, 412, path, file: file, line: line)
            XCTAssertEqual(try get(path, ["If-Match": first.header("ETag") ?? "\"\""]).status, 200, path, file: file, line: line)
            XCTAssertEqual(try get(path, ["If-Match": "*"]).status, 200, path, file: file, line: line)
        }

        // HTTP/1.1 requires Host; HTTP/1.0 does not.
        let noHost = try RawHTTP.exchange(port: port, "GET /index.html HTTP/1.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(noHost.status, 400, "HTTP/1.1 without Host", file: file, line: line)
        XCTAssertEqual(try RawHTTP.exchange(port: port, "GET /index.html HTTP/1.0\r\n\r\n").status, 200, file: file, line: line)
    }

    /// An original of a type no synced fixture has.
    static let webpOriginal = "originals/ee/" + String(repeating: "ee", count: 32) + ".webp"

    /// Thumbnails of other formats and fits than the synced fixture's, as their folders name them.
    static let thumbnailVariants = [
        (path: "thumbs/40x40.webp/ee/" + String(repeating: "ee", count: 32) + ".webp", type: "image/webp"),
        (path: "thumbs/40x40-contain.avif/ee/" + String(repeating: "ee", count: 32) + ".avif", type: "image/avif"),
        (path: "thumbs/80x60-contain-q60.jpg/ee/" + String(repeating: "ee", count: 32) + ".jpg", type: "image/jpeg"),
        (path: "thumbs/40x40-contain/ee/" + String(repeating: "ee", count: 32) + ".png", type: "image/png"),
    ]

    /// Files in thumbnail folders that photomirror never names so: an extension not the folder's,
    /// a format it does not write.
    static let offVariants = [
        "thumbs/40x40.webp/ee/" + String(repeating: "ee", count: 32) + ".png",
        "thumbs/40x40/ee/" + String(repeating: "ee", count: 32) + ".webp",
        "thumbs/40x40.gif/ee/" + String(repeating: "ee", count: 32) + ".gif",
        "thumbs/40x40-cover.webp/ee/" + String(repeating: "ee", count: 32) + ".webp",
    ]

    /// Plants what the refusals above are about: symlinks out of the cache and to its index, a
    /// temp file, and one file of each extra type.
    static func plantHazards(in cache: URL) throws {
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: cache.appendingPathComponent("thumbs/escape.png").path,
                                       withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: cache.appendingPathComponent("feeds/escape").path,
                                       withDestinationPath: "/etc")
        try manager.createSymbolicLink(atPath: cache.appendingPathComponent("thumbs/index-link.png").path,
                                       withDestinationPath: "../index.sqlite")
        try Data("partial".utf8).write(to: cache.appendingPathComponent(".tmp-partial.png"))
        try manager.createDirectory(at: cache.appendingPathComponent("extras"), withIntermediateDirectories: true)
        for name in ["extras/a.css", "extras/a.js", "notes.txt", "feeds/config.json"] {
            try Data("x".utf8).write(to: cache.appendingPathComponent(name))
        }
        try Data(#"{"max_size": "987654321"}"#.utf8).write(to: cache.appendingPathComponent("config.json"))
        let feedFolder = try manager.contentsOfDirectory(atPath: cache.appendingPathComponent("feeds").path)
            .first { $0.count == 16 }.map { cache.appendingPathComponent("feeds/" + $0) }
        if let feedFolder {
            try Data("{}".utf8).write(to: feedFolder.appendingPathComponent("notes.json"))
            try Data("<p>one</p>".utf8).write(to: feedFolder.appendingPathComponent("page-1.html"))
        }
        let planted = [webpOriginal, "originals/ee/not-a-hash.jpg", "originals/ff/" + String(repeating: "ee", count: 32) + ".webp",
                       "thumbs/big/ee/" + String(repeating: "ee", count: 32) + ".png"] + thumbnailVariants.map(\.path) + offVariants
        for name in planted {
            let url = cache.appendingPathComponent(name)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
    }
}

/// Just enough HTTP-date reading to tell a Last-Modified is one (RFC 9110 §5.6.7).
enum HTTPDateForm {
    static func parse(_ text: String) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format.date(from: text)
    }
}
