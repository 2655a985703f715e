import Foundation
import PMCache
import PMSupport

/// The checks of `verify`, over any open index (read-only for `verify`, the locked writer's for
/// `verify --repair`): indexed files against their rows, manifests, JSON Feeds and gallery pages
/// against the storage, and the storage against the index for garbage. The file work runs on
/// threads of its own. In the cache folder every indexed file is read and hashed; in an object
/// store its listed size is checked, and with `deep` it is fetched and hashed too.
struct CacheInspection: Sendable {
    let layout: CacheLayout
    let index: PhotoIndex
    var storage: (any CacheStorage)?
    var deep = false

    init(layout: CacheLayout, index: PhotoIndex, storage: (any CacheStorage)? = nil, deep: Bool = false) {
        self.layout = layout
        self.index = index
        self.storage = storage
        self.deep = deep
    }

    /// SQLite's page cache while inspecting: the file rows are read a page at a time in the order
    /// of their tables' b-trees, so each database page is read once and a cache as large as a
    /// prune's (which deletes tens of thousands of rows) would only hold what is done with.
    static let pageCacheKibibytes = 2 << 10

    func run() async throws -> VerifyReport {
        var report = VerifyReport()
        await index.boundPageCache(kibibytes: Self.pageCacheKibibytes)
        let remote = storage.flatMap { $0 is LocalStorage ? nil : $0 }
        let storage = storage ?? LocalStorage(layout: layout)
        // The walk runs on threads of its own while, in a folder, the indexed files are read and
        // hashed, a page of rows at a time, which needs the rows but not the walk. Compact: the
        // content files by their path's hash (a folder's 200 000 paths took ~20 MB), listed again
        // only when the counts say there are orphans to name.
        async let scanned = storage.compactInventory()
        let feeds = try await index.feeds()
        async let hashed = remote == nil ? try FileCheck(layout: layout).run(index: index) : FileCheckResult()
        let scan = try await scanned
        var documents: [String: [UInt8]]?
        if let remote { documents = try await Self.documents(in: remote, scan: scan, feeds: feeds) }
        let pool = BlockingPool(name: "photomirror.verify")
        defer { pool.shutdown() }
        var referenceCheck = ReferenceCheck(layout: layout, scan: scan, feeds: feeds, documents: documents)
        referenceCheck.published = try await index.publishedFeedKeys()
        let references = try await referenceCheck.run(on: pool)
        let checked = if let remote {
            try await StoredFileCheck(storage: remote, scan: scan, deep: deep).run(index: index)
        } else {
            try await hashed
        }
        report.checkedFiles = checked.files
        for (file, problem) in checked.failures {
            let path = file.path.description
            report.damage.append("\(path): \(problem)")
            report.findings.damagedFiles.append(path)
            switch file.role {
            case .original: report.findings.originals.append(file.sha256.description)
            case .thumbnail(let original, let size): report.findings.thumbnails.append((original.description, size))
            }
        }
        report.checkedManifests = references.manifests
        report.checkedJSONFeeds = references.jsonFeeds
        report.checkedPages = references.pages
        report.damage += references.damage
        report.stale = references.stale
        report.findings.pagesDamaged = !references.damage.isEmpty
        report.findings.documentsStale = !references.stale.isEmpty
        if !storage.sharedByWriters {
            report.garbage += try await UnindexedFeeds.find(in: storage, ownFeedKeys: Set(feeds.map(\.key))) {
                scan.diskBytes($0) != nil
            }.lines
        }
        let garbage = try await Self.garbage(contentFilesIndexed: checked.contentFilesFound, scan: scan, storage: storage,
                                             feeds: feeds, index: index)
        for file in garbage {
            let path = file.description
            report.garbage.append(DiskScan.isTemp(path)
                ? "\(path): temp file left by an interrupted writer" : "\(path): not in the index (orphan)")
            report.findings.garbage.append(path)
        }
        return report
    }

    /// The temp files and orphans of the storage: what no row names. Another writer's files in
    /// a shared store are not this index's garbage; a folder has no other writer, so there the
    /// files of a manifest the index does not hold are orphans (reported with it). When the
    /// rows name as many content files as the storage holds (the usual case), there is no
    /// orphan, and no set of the 150 000 paths is built, nor a listing of them made. The files
    /// a listing made now finds that `scan` did not (a sync's, beside this read-only check) are
    /// not judged: the rows were read before they came.
    private static func garbage(contentFilesIndexed: Int, scan: DiskScan, storage: any CacheStorage, feeds: [FeedRecord],
                                index: PhotoIndex) async throws -> [CachePath] {
        var orphans: [CachePath] = []
        if contentFilesIndexed != scan.contentFileCount {
            var indexed = Set<CachePath>()
            try await index.forEachFilePage { files in for file in files { indexed.insert(file.path) } }
            let listing = scan.listsContentFiles ? scan : try await storage.inventory()
            orphans = listing.contentFiles.filter { !indexed.contains($0) && scan.diskBytes(of: $0) != nil }
                .sorted { $0.description < $1.description }
        }
        let foreign = storage.sharedByWriters
            ? try await ForeignReferences.load(storage: storage, ownFeedKeys: Set(feeds.map(\.key))) : ForeignReferences()
        return (scan.tempFiles.map { CachePath($0) } + orphans).filter { !foreign.contains($0) }
    }

    /// The manifests, JSON Feeds and pages of this index's feeds, and the root page, fetched from
    /// an object store for `ReferenceCheck`, a few at a time.
    private static func documents(in storage: any CacheStorage, scan: DiskScan, feeds: [FeedRecord]) async throws -> [String: [UInt8]] {
        let own = Set(feeds.map { "\(CacheLayout.feedsFolder)/\($0.key)/" })
        let pages = scan.files.keys.map(\.description).filter {
            $0.hasSuffix(".html") && ($0 == CacheLayout.galleryFile || own.contains(ReferenceCheck.folder(of: $0)))
        }
        let paths = feeds.flatMap { [CacheLayout.manifestPath(feedKey: $0.key), CacheLayout.jsonFeedPath(feedKey: $0.key)] } + pages
        return try await withThrowingTaskGroup(of: (String, [UInt8]?).self) { group in
            var documents: [String: [UInt8]] = [:]
            var next = paths.makeIterator()
            func start() { if let path = next.next() { group.addTask { (path, try await storage.read(path)) } } }
            for _ in 0..<16 { start() }
            while let (path, bytes) = try await group.next() {
                if let bytes { documents[path] = bytes }
                start()
            }
            return documents
        }
    }
}
