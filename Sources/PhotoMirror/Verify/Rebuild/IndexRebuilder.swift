import Foundation
import PMCache
import PMImaging
import PMSupport

/// Builds a new index from what the cache holds and puts it in the place of a damaged or lost
/// one, under the writers' lock (`verify --repair`):
///
/// - every manifest gives its feed's row and items, statuses, media URLs and hashes, further
///   images and the HTTP validators (`ManifestRows`);
/// - every content file gives its original's or thumbnail's row, checked and hashed
///   (`ContentRows`);
/// - each media URL a manifest names with an image that has a file gives its URL row, so the
///   next sync downloads nothing the cache already has;
/// - the sidecar (`SyncState`) gives each feed's last sync, the feeds' poll times, the gallery
///   size and the last sync's counters.
///
/// The new index is written to a temp file (`.tmp-…`, garbage if the repair is killed) and
/// renamed into place whole, so no writer or reader ever sees half of it, and a partial index
/// can never make the cache's files look like orphans to a later repair's sweep.
struct IndexRebuilder: Sendable {
    let layout: CacheLayout
    let storage: any CacheStorage

    struct Result: Sendable {
        var feeds = 0
        var items = 0
        var originals = 0
        var thumbnails = 0
        var mediaURLs = 0
        /// The damaged index's new name, when there was one to keep.
        var keptAs: String?
        /// Manifests and content files that gave no rows, with the reason.
        var skipped: [String] = []
    }

    func run(now: Double = Date().timeIntervalSince1970) async throws -> Result {
        let scan = try await storage.inventory()
        let temp = layout.absolute("\(AtomicFile.tempPrefix)index-rebuild.sqlite")
        removeIndexFile(temp)
        var result = try await build(at: temp, scan: scan, state: await SyncState.load(from: storage))
        result.keptAs = try DamagedIndexFiles(layout: layout).replace(with: temp, at: now)
        return result
    }

    /// Writes the new index at `path` and closes it. The files are hashed while the manifests
    /// are read and their feeds written, one feed at a time (a feed's items are the largest part
    /// of what a rebuild holds in memory).
    private func build(at path: String, scan: DiskScan, state: SyncState?) async throws -> Result {
        let index = try PhotoIndex(path: path)
        await index.boundPageCache(kibibytes: PruneRun.pageCacheKibibytes)
        async let hashed = ContentRows.read(scan.contentFiles, layout: layout)
        var result = Result()
        var media: [(lastSync: Double, key: String, media: [ManifestRows.Media])] = []
        var gallerySize: String?
        let pool = BlockingPool(threads: 1, name: "photomirror.rebuild.manifests")
        defer { pool.shutdown() }
        for path in Self.manifestPaths(in: scan) {
            // The folder's name is the key its pages were written under (that of its URL).
            let key = String(path.split(separator: "/")[1])
            let rows: ManifestRows
            do {
                guard let bytes = try await storage.read(path) else { continue }
                rows = try await pool.run { try ManifestRows.read(Data(bytes), key: key) { state?.feeds[$0]?.lastSync } }
            } catch {
                result.skipped.append("\(path): not a readable manifest (\(error)); its feed's next sync brings it back")
                continue
            }
            try await index.replaceFeed(rows.feed, items: rows.items)
            result.feeds += 1
            result.items += rows.items.count
            media.append((rows.feed.lastSync, key, rows.media))
            gallerySize = gallerySize ?? rows.gallerySize
        }
        var files = await hashed
        files.takeManifestFields(from: media.map(\.media))
        result.originals = files.originals.count
        result.thumbnails = files.thumbnails.count
        result.skipped += files.rejected
        // For a URL two feeds name with different images, the feed synced last wins.
        media.sort { ($0.lastSync, $0.key) < ($1.lastSync, $1.key) }
        let resources = Self.resources(named: media.map(\.media), files: files)
        result.mediaURLs = resources.count
        try await index.insertRebuiltFiles(originals: files.originals, thumbnails: files.thumbnails, resources: resources)
        try await index.forgetMediaURLs(of: Self.lostOriginals(named: media.map(\.media), files: files))
        if let polls = state?.feedPolls { try await index.recordPolls(polls) }
        var meta: [String: String] = [:]
        if let size = state?.gallerySize ?? gallerySize { meta[MetaKey.gallerySize] = size }
        if let counters = state?.lastSync { meta[MetaKey.lastSync] = counters.encoded() }
        if !meta.isEmpty { try await index.setMeta(meta) }
        try await index.detachLog()
        return result
    }

    /// `feeds/<key>/manifest.json` of every feed folder the scan found.
    static func manifestPaths(in scan: DiskScan) -> [String] {
        scan.files.keys.map(\.description).filter { path in
            let parts = path.split(separator: "/")
            return parts.count == 3 && parts[0] == CacheLayout.feedsFolder && parts[2] == CacheLayout.manifestFile
        }.sorted()
    }

    /// The media URL rows: each URL with a hash whose original is stored, at the time of that
    /// file (as prune leaves them: a URL loses its row with its image's original). `feeds`' media
    /// in the order they win in: a later one's URL replaces an earlier one's.
    static func resources(named feeds: [[ManifestRows.Media]], files: ContentRows) -> [ResourceRecord] {
        var stored: [String: (time: Double, contentType: String?)] = [:]
        for original in files.originals {
            stored[original.sha256] = (original.storedAt, ImageFormat.named(original.format)?.mimeType)
        }
        var byURL: [String: ResourceRecord] = [:]
        for media in feeds.joined() {
            guard let file = stored[media.sha256] else { continue }
            byURL[media.url] = ResourceRecord(url: media.url, sha256: media.sha256, etag: media.etag,
                                              lastModified: media.lastModified, contentType: file.contentType,
                                              fetchedAt: file.time, lastAccess: file.time)
        }
        return byURL.values.sorted { $0.url < $1.url }
    }

    /// The images a manifest shows stored whose original no file gives: lost, not evicted, so
    /// the next sync fetches them again (an evicted image it would leave so).
    static func lostOriginals(named feeds: [[ManifestRows.Media]], files: ContentRows) -> [ImageHash] {
        let stored = Set(files.originals.map(\.sha256))
        return Set(feeds.joined().filter { $0.showsOriginal && !stored.contains($0.sha256) }.map(\.sha256))
            .sorted().map { ImageHash($0) }
    }

    private func removeIndexFile(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
