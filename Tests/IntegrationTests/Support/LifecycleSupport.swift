import Foundation
import XCTest

/// Reading a cache the way a person (and `du`) sees it, for the lifecycle tests.
enum CacheDisk {
    /// `du -sb`: the apparent size of every file and folder in the cache.
    static func apparentBytes(_ cache: URL) throws -> Int {
        try du(["-sb", cache.path])
    }

    /// `du -s -B1`: allocated bytes, what `prune --max` bounds.
    static func allocatedBytes(_ cache: URL) throws -> Int {
        try du(["-s", "-B1", cache.path])
    }

    private static func du(_ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/du")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let first = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).first
        return try XCTUnwrap(first.flatMap { Int($0) }, "du printed \(String(decoding: data, as: UTF8.self))")
    }

    /// Files under `folder` (relative to the cache), temp files excluded.
    static func files(in cache: URL, under folder: String) -> [String] {
        let root = cache.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let name = walker?.nextObject() as? String {
            if walker?.fileAttributes?[.type] as? FileAttributeType == .typeRegular { found.append(folder + "/" + name) }
        }
        return found.sorted()
    }

    /// Every path a manifest names, every image a JSON Feed names (relative to it) and every
    /// relative link a gallery page makes that does not exist: what a client would find broken.
    static func brokenReferences(_ cache: URL) throws -> [String] {
        var broken: [String] = []
        for manifest in files(in: cache, under: "feeds").filter({ $0.hasSuffix("manifest.json") }) {
            for item in try manifestItems(cache, path: manifest) {
                let paths = [item["original"], item["thumbnail"]].compactMap { $0 as? String }
                    + ((item["thumbnails"] as? [String: String]) ?? [:]).values
                for path in paths where !FileManager.default.fileExists(atPath: cache.appendingPathComponent(path).path) {
                    broken.append("\(manifest): \(path)")
                }
            }
        }
        for jsonFeed in files(in: cache, under: "feeds").filter({ $0.hasSuffix("/feed.json") }) {
            let file = cache.appendingPathComponent(jsonFeed)
            let feed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let items = (feed["items"] as? [[String: Any]]) ?? []
            let links = [feed["icon"], feed["favicon"]].compactMap { $0 as? String }
                + items.compactMap { $0["image"] as? String }
                + items.flatMap { ($0["attachments"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String } }
            for link in links {
                let target = URL(string: link, relativeTo: file)?.standardizedFileURL.path ?? link
                if !FileManager.default.fileExists(atPath: target) { broken.append("\(jsonFeed): \(link)") }
            }
        }
        let pages = ["index.html"] + files(in: cache, under: "feeds").filter { $0.hasSuffix(".html") }
        for page in pages {
            let html = try String(contentsOf: cache.appendingPathComponent(page), encoding: .utf8)
            let folder = cache.appendingPathComponent(page).deletingLastPathComponent()
            for link in relativeLinks(html) {
                let target = folder.appendingPathComponent(link).standardizedFileURL.path
                if !FileManager.default.fileExists(atPath: target) { broken.append("\(page): \(link)") }
            }
        }
        return broken
    }

    static func manifestItems(_ cache: URL, path: String) throws -> [[String: Any]] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent(path)))
        return try XCTUnwrap((manifest as? [String: Any])?["items"] as? [[String: Any]])
    }

    /// The items of the manifest of the feed at `url`, keyed by their title's first word (the photo's file name).
    static func itemsByPhoto(_ cache: URL, feedURL: String) throws -> [String: [String: Any]] {
        let key = try sha256Hex(Data(feedURL.utf8)).prefix(16)
        var result: [String: [String: Any]] = [:]
        for item in try manifestItems(cache, path: "feeds/\(key)/manifest.json") {
            let title = (item["title"] as? String) ?? ""
            result[String(title.split(separator: " ").first ?? "")] = item
        }
        return result
    }

    /// `src`, `href` and `srcset` values that are paths into the cache, percent-decoded.
    static func relativeLinks(_ html: String) -> [String] {
        var links: [String] = []
        let pattern = try! NSRegularExpression(pattern: "(?:src|href|srcset)=\"([^\"]*)\"")
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            guard let range = Range(match.range(at: 1), in: html) else { continue }
            for candidate in html[range].split(separator: ",") {
                let url = String(candidate.split(separator: " ").first ?? "")
                guard !url.isEmpty, !url.contains(":"), !url.hasPrefix("#"), !url.hasPrefix("/") else { continue }
                links.append(url.removingPercentEncoding ?? url)
            }
        }
        return links
    }

    /// `sha256sum` of some bytes (the tests use no module of the package, only its binary).
    static func sha256Hex(_ data: Data) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: printed, as: UTF8.self).prefix(64))
    }

    /// A `--json` report printed on stdout.
    static func json(_ stdout: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], stdout)
    }
}

/// Two Flickr feeds of real photos served on 127.0.0.1: "older" (synced first in the tests) and
/// "newer", sharing FreshFlower and Garden.
struct TwoFeeds {
    static let olderPhotos = ["Aqua.jpg", "Blinds.jpg", "FreshFlower.jpg", "Garden.jpg"]
    static let newerPhotos = ["FreshFlower.jpg", "Garden.jpg", "GreenMeadow.jpg"]

    let site: FeedSite
    let server: FixtureServer
    let folder: URL
    let older: String
    let newer: String
    let photomirror = Photomirror()

    static func make() throws -> TwoFeeds {
        let site = try FeedSite(photos: try Paths.photos(count: 12).filter {
            (olderPhotos + newerPhotos).contains($0.lastPathComponent)
        })
        let server = try FixtureServer(root: site.root)
        let base = "http://127.0.0.1:\(server.port)"
        try site.writeFlickrFeed(at: "older.js", base: base, names: olderPhotos)
        try site.writeFlickrFeed(at: "newer.js", base: base, names: newerPhotos)
        return TwoFeeds(site: site, server: server, folder: try Paths.temporaryFolder(), older: server.url("older.js"),
                        newer: server.url("newer.js"))
    }

    /// Makes the older feed list only `names` from now on.
    func relistOlder(_ names: [String]) throws {
        try site.writeFlickrFeed(at: "older.js", base: "http://127.0.0.1:\(server.port)", names: names)
    }

    func sync(_ cache: URL, _ feeds: [String], _ extra: [String] = []) throws -> Photomirror.Result {
        try photomirror.run(["sync", "--quiet", "--cache", cache.path] + extra + feeds)
    }
}
