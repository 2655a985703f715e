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

    func run() async throws -> VerifyReport {
        var report = VerifyReport()
        await index.boundPageCache(kibibytes: PruneRun.pageCacheKibibytes)
        let remote = storage.flatMap { $0 is LocalStorage ? nil : $0 }
        let storage = storage ?? LocalStorage(layout: layout)
        // The walk runs on threads of its own while the rows are read and, in a folder, while
        // the indexed files are read and hashed, which needs the rows but not the walk.
        async let scanned = storage.inventory()
        let rows = try await index.allFiles()
        let files = IndexedFile.all(in: rows)
        report.checkedFiles = files.count
        let feeds = try await index.feeds()
        async let hashed = remote == nil ? FileCheck(layout: layout).failures(files) : []
        let scan = try await scanned
        async let garbage = Self.garbage(rows: rows, scan: scan, storage: storage, feeds: feeds)
        var documents: [String: [UInt8]]?
        if let remote { documents = try await Self.documents(in: remote, scan: scan, feeds: feeds) }
        let pool = BlockingPool(name: "photomirror.verify")
        defer { pool.shutdown() }
        let references = try await ReferenceCheck(layout: layout, scan: scan, feeds: feeds, documents: documents).run(on: pool)
        let failures = if let remote {
            await StoredFileCheck(storage: remote, scan: scan, deep: deep).failures(files)
        } else {
            await hashed
        }
        for (file, problem) in failures {
            report.damage.append("\(file.path): \(problem)")
            report.findings.damagedFiles.append(file.path)
            switch file.role {
            case .original(let sha256): report.findings.originals.append(sha256)
            case .thumbnail(let sha256, let size): report.findings.thumbnails.append((sha256, size))
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
        for file in try await garbage {
            let path = file.path.description
            report.garbage.append(DiskScan.isTemp(path)
                ? "\(path): temp file left by an interrupted writer" : "\(path): not in the index (orphan)")
            report.findings.garbage.append(path)
        }
        return report
    }

    /// The temp files and orphans of the storage: what no row names. Another writer's files in
    /// a shared store are not this index's garbage; a folder has no other writer, so there the
    /// files of a manifest the index does not hold are orphans (reported with it).
    private static func garbage(rows: (originals: [OriginalRecord], thumbnails: [ThumbnailRecord]), scan: DiskScan,
                                storage: any CacheStorage, feeds: [FeedRecord]) async throws -> [CachedFile] {
        let stored = EvictionRows(
            originals: rows.originals.map { IndexedFileRow(sha256: ImageHash($0.sha256), path: CachePath($0.path), lastAccess: 0) },
            thumbnails: rows.thumbnails.map {
                IndexedFileRow(sha256: ImageHash($0.originalSHA256), path: CachePath($0.path), lastAccess: 0)
            })
        let foreign = storage.sharedByWriters
            ? try await ForeignReferences.load(storage: storage, ownFeedKeys: Set(feeds.map(\.key))) : ForeignReferences()
        return PruneRun.garbage(in: scan, blobs: EvictionPolicy.blobs(stored, diskBytes: scan.files)).filter { !foreign.contains($0.path) }
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
