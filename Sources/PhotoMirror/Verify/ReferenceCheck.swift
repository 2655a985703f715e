import Foundation
import PMCache
import PMSupport

/// Checks that manifests, JSON Feeds and gallery pages name only files that exist. Blocking (it
/// reads every one of them): each feed's documents and each run of pages is a unit of work, run
/// on a `BlockingPool`'s threads. Existence is looked up in the disk scan rather than asked of
/// the file system: a 100 000-item cache has some 500 000 links.
struct ReferenceCheck: Sendable {
    let layout: CacheLayout
    let scan: DiskScan
    let feeds: [FeedRecord]
    /// A published document's bytes: from the folder, or (a storage that is not one) fetched
    /// beforehand by `CacheInspection`.
    var read: @Sendable (String) -> [UInt8]? = { _ in nil }

    /// Whether the pages of feeds this index does not hold are checked too: in a cache folder
    /// every page is this writer's; in a shared bucket another writer's pages are theirs to check.
    var everyPage = true

    /// The feeds a sync has published (`PhotoIndex.publishedFeedKeys`); nil: every feed. A feed
    /// without a manifest that no sync ever published was staged by a sync stopped before its
    /// first manifest was put: the next sync of it writes one, so it is not damage.
    var published: Set<String>?

    /// Pages per unit of work: a feed's worth of them, about what one feed's manifest costs.
    static let pagesPerUnit = 10

    init(layout: CacheLayout, scan: DiskScan, feeds: [FeedRecord], documents: [String: [UInt8]]? = nil) {
        self.layout = layout
        self.scan = scan
        self.feeds = feeds
        everyPage = documents == nil
        if let documents {
            read = { path in documents[path] }
        } else {
            read = { path in FileContents.read(layout.absolute(path)) }
        }
    }

    struct Result: Sendable {
        var damage: [String] = []
        /// Derived files out of date (see `JSONFeedCheck`): not damage, rewritten by a repair.
        var stale: [String] = []
        var manifests = 0
        var jsonFeeds = 0
        var pages = 0

        mutating func add(_ other: Result) {
            damage += other.damage
            stale += other.stale
            manifests += other.manifests
            jsonFeeds += other.jsonFeeds
            pages += other.pages
        }
    }

    /// One feed's manifest and JSON Feed, or a run of pages.
    enum Unit: Sendable {
        case feed(FeedRecord)
        case pages(ArraySlice<String>)
    }

    /// Every unit, in the order their findings are reported: the feeds', then the pages sorted.
    var units: [Unit] {
        let pages = pagePaths
        return feeds.map(Unit.feed)
            + stride(from: 0, to: pages.count, by: Self.pagesPerUnit).map { .pages(pages[$0..<min($0 + Self.pagesPerUnit, pages.count)]) }
    }

    /// Runs every unit on `pool`'s threads; findings in the order of `units`.
    func run(on pool: BlockingPool) async throws -> Result {
        let units = self.units
        // A feed's unit holds its manifest and JSON Feed, parsed: some 5 MB for 2000 items; a run
        // of pages a megabyte. The feeds' units take turns on a thread of their own while the
        // pages share `pool`: both kinds run in parallel, and no two feeds' documents are held
        // at once.
        let feedLane = BlockingPool(threads: 1, name: "photomirror.verify.feeds")
        defer { feedLane.shutdown() }
        let parts = try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            for (number, unit) in units.enumerated() {
                let lane = if case .feed = unit { feedLane } else { pool }
                group.addTask { (number, try await lane.run { check(unit) }) }
            }
            var parts = [Result](repeating: Result(), count: units.count)
            for try await (number, part) in group { parts[number] = part }
            return parts
        }
        var result = Result()
        for part in parts { result.add(part) }
        return result
    }

    func check(_ unit: Unit) -> Result {
        var result = Result()
        switch unit {
        case .feed(let feed): checkFeedDocuments(of: feed, into: &result)
        case .pages(let pages): for page in pages { checkPage(page, into: &result) }
        }
        return result
    }

    private func checkFeedDocuments(of feed: FeedRecord, into result: inout Result) {
        let ids = checkManifest(of: feed, into: &result)
        result.jsonFeeds += 1
        let path = CacheLayout.jsonFeedPath(feedKey: feed.key)
        let problems = JSONFeedCheck.problems(
            in: read(path), path: path, feedURL: feed.url,
            manifestIDs: ids) { scan.diskBytes($0) != nil }
        result.damage += problems.damage
        result.stale += problems.stale
    }

    /// Checks one manifest; returns the ids of its items when it could be read.
    private func checkManifest(of feed: FeedRecord, into result: inout Result) -> Set<String>? {
        result.manifests += 1
        let manifestPath = CacheLayout.manifestPath(feedKey: feed.key)
        guard let data = read(manifestPath) else {
            if let published, !published.contains(feed.key) {
                result.stale.append("\(manifestPath): manifest of \(feed.url) is not written yet (a sync stopped "
                    + "after staging the feed; the next sync of it writes it)")
            } else {
                result.damage.append("\(manifestPath): manifest of \(feed.url) is missing")
            }
            return nil
        }
        guard let manifest = ManifestLinks.read(data) else {
            result.damage.append("\(manifestPath): not a valid manifest")
            return nil
        }
        if let image = manifest.image {
            for path in Set([image.original, image.thumbnail].compactMap { $0 }).sorted() where scan.diskBytes(path) == nil {
                result.damage.append("\(manifestPath): the feed's image points at missing \(path)")
            }
        }
        for item in manifest.items {
            // Sorted and once each, as reported; only the missing, mostly none, need the set.
            let missing = item.paths.filter { scan.diskBytes($0) == nil }
            for path in Set(missing).sorted() {
                result.damage.append("\(manifestPath): item \(item.id) points at missing \(path)")
            }
        }
        return Set(manifest.items.map(\.id))
    }

    /// The gallery's pages (`index.html` and any `.html` under `feeds/`), sorted: a broken link
    /// there is a broken image in someone's browser.
    private var pagePaths: [String] {
        let own = Set(feeds.map { "\(CacheLayout.feedsFolder)/\($0.key)/" })
        return scan.files.keys.compactMap { key -> String? in
            guard case .text(let path) = key, path.hasSuffix(".html"),
                  path == CacheLayout.galleryFile || path.hasPrefix(CacheLayout.feedsFolder + "/"), !DiskScan.isTemp(path)
            else { return nil }
            guard everyPage || path == CacheLayout.galleryFile || own.contains(Self.folder(of: path)) else { return nil }
            return path
        }.sorted()
    }

    private func checkPage(_ page: String, into result: inout Result) {
        result.pages += 1
        guard let data = read(page) else { return }
        let folder = (page as NSString).deletingLastPathComponent
        var missing: [(link: String, target: String?)] = []
        for link in Set(PageLinks.relative(in: data)) {
            let target = Self.resolve(link, from: folder)
            if target.map({ scan.diskBytes($0) == nil }) ?? true { missing.append((link, target)) }
        }
        for (link, target) in missing.sorted(by: { $0.link < $1.link }) {
            result.damage.append("\(page): links to missing \(target ?? link)")
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
        // Bytes in one buffer, no split arrays: `verify` resolves every link of every page, some
        // 200 000.
        var (link, folder) = (link, folder)
        return folder.withUTF8 { folder in
            link.withUTF8 { link -> String? in
                var resolved: [UInt8] = []
                resolved.reserveCapacity(folder.count + link.count + 11)
                var starts: [Int] = []
                func push(_ segment: UnsafeBufferPointer<UInt8>) {
                    starts.append(resolved.count)
                    if !resolved.isEmpty { resolved.append(UInt8(ascii: "/")) }
                    resolved.append(contentsOf: segment)
                }
                /// Each non-empty segment of `bytes[..<end]`; dot segments move up the path when
                /// `dots` (the link's), and are names like any other in the folder.
                func walk(_ bytes: UnsafeBufferPointer<UInt8>, to end: Int, dots: Bool) -> Bool {
                    var start = 0
                    while start < end {
                        var stop = start
                        while stop < end, bytes[stop] != UInt8(ascii: "/") { stop += 1 }
                        let segment = UnsafeBufferPointer(rebasing: bytes[start..<stop])
                        if dots && segment.elementsEqual("..".utf8) {
                            guard let start = starts.popLast() else { return false }
                            resolved.removeSubrange(start...)
                        } else if !segment.isEmpty, !(dots && segment.elementsEqual(".".utf8)) {
                            push(segment)
                        }
                        start = stop + 1
                    }
                    return true
                }
                let pathEnd = link.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? link.count
                guard walk(folder, to: folder.count, dots: false), walk(link, to: pathEnd, dots: true) else { return nil }
                // A folder link is served as its index page.
                if pathEnd == 0 || link[pathEnd - 1] == UInt8(ascii: "/") {
                    ("index.html" as StaticString).withUTF8Buffer { push($0) }
                }
                return String(decoding: resolved, as: UTF8.self)
            }
        }
    }
}
