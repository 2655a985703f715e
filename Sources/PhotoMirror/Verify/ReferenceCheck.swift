import Foundation
import PMCache
import PMSupport

/// Checks that manifests, JSON Feeds and gallery pages name only files that exist. Blocking (it
/// reads every one of them): run it on a `BlockingPool`. Existence is looked up in the disk scan
/// rather than asked of the file system: a 100 000-item cache has some 500 000 links.
struct ReferenceCheck: Sendable {
    let layout: CacheLayout
    let scan: DiskScan
    let feeds: [FeedRecord]
    /// A published document's bytes: from the folder, or (a storage that is not one) fetched
    /// beforehand by `CacheInspection`.
    var read: @Sendable (String) -> Data? = { _ in nil }

    /// Whether the pages of feeds this index does not hold are checked too: in a cache folder
    /// every page is this writer's; in a shared bucket another writer's pages are theirs to check.
    var everyPage = true

    init(layout: CacheLayout, scan: DiskScan, feeds: [FeedRecord], documents: [String: [UInt8]]? = nil) {
        self.layout = layout
        self.scan = scan
        self.feeds = feeds
        everyPage = documents == nil
        if let documents {
            read = { path in documents[path].map { Data($0) } }
        } else {
            read = { path in FileManager.default.contents(atPath: layout.absolute(path)) }
        }
    }

    struct Result: Sendable {
        var damage: [String] = []
        /// Derived files out of date (see `JSONFeedCheck`): not damage, rewritten by a repair.
        var stale: [String] = []
        var manifests = 0
        var jsonFeeds = 0
        var pages = 0
    }

    func run() -> Result {
        var result = Result()
        checkFeedDocuments(into: &result)
        checkPages(into: &result)
        return result
    }

    private func checkFeedDocuments(into result: inout Result) {
        for feed in feeds {
            let ids = checkManifest(of: feed, into: &result)
            result.jsonFeeds += 1
            let path = CacheLayout.jsonFeedPath(feedKey: feed.key)
            let problems = JSONFeedCheck.problems(
                in: read(path), path: path, feedURL: feed.url,
                manifestIDs: ids) { scan.diskBytes($0) != nil }
            result.damage += problems.damage
            result.stale += problems.stale
        }
    }

    /// Checks one manifest; returns the ids of its items when it could be read.
    private func checkManifest(of feed: FeedRecord, into result: inout Result) -> Set<String>? {
        result.manifests += 1
        let manifestPath = CacheLayout.manifestPath(feedKey: feed.key)
        guard let data = read(manifestPath) else {
            result.damage.append("\(manifestPath): manifest of \(feed.url) is missing")
            return nil
        }
        guard let manifest = try? JSONDecoder().decode(ManifestLinks.self, from: data) else {
            result.damage.append("\(manifestPath): not a valid manifest")
            return nil
        }
        if let image = manifest.image {
            for path in Set([image.original, image.thumbnail].compactMap { $0 }).sorted() where scan.diskBytes(path) == nil {
                result.damage.append("\(manifestPath): the feed's image points at missing \(path)")
            }
        }
        for item in manifest.items {
            for path in Set(item.paths).sorted() where scan.diskBytes(path) == nil {
                result.damage.append("\(manifestPath): item \(item.id) points at missing \(path)")
            }
        }
        return Set(manifest.items.map(\.id))
    }

    /// The gallery's pages (`index.html` and any `.html` under `feeds/`): a broken link there is
    /// a broken image in someone's browser.
    private func checkPages(into result: inout Result) {
        let own = Set(feeds.map { "\(CacheLayout.feedsFolder)/\($0.key)/" })
        let pages = scan.files.keys.compactMap { key -> String? in
            guard case .text(let path) = key, path.hasSuffix(".html"),
                  path == CacheLayout.galleryFile || path.hasPrefix(CacheLayout.feedsFolder + "/"), !DiskScan.isTemp(path)
            else { return nil }
            guard everyPage || path == CacheLayout.galleryFile || own.contains(Self.folder(of: path)) else { return nil }
            return path
        }.sorted()
        for page in pages {
            result.pages += 1
            guard let data = read(page) else { continue }
            let folder = (page as NSString).deletingLastPathComponent
            for link in Set(PageLinks.relative(in: String(decoding: data, as: UTF8.self))).sorted() {
                let target = Self.resolve(link, from: folder)
                if target.map({ scan.diskBytes($0) == nil }) ?? true {
                    result.damage.append("\(page): links to missing \(target ?? link)")
                }
            }
        }
    }

    /// `feeds/<key>/` of a page under `feeds/`.
    static func folder(of page: String) -> String {
        let parts = page.split(separator: "/", maxSplits: 2)
        return parts.count == 3 ? "\(parts[0])/\(parts[1])/" : ""
    }

    /// `link` (relative to the cache folder `folder`) as a path relative to the cache root, or nil
    /// when it climbs out of the cache. Query and fragment are dropped; a folder means its
    /// `index.html`. Pure.
    static func resolve(_ link: String, from folder: String) -> String? {
        let path = link.prefix { $0 != "?" && $0 != "#" }
        var parts = folder.split(separator: "/").map(String.init)
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        // A folder link is served as its index page.
        if path.hasSuffix("/") || path.isEmpty { parts.append("index.html") }
        return parts.joined(separator: "/")
    }
}
