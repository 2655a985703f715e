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
        let state = await SyncState.load(from: storage)
        async let files = ContentRows.read(scan.contentFiles, layout: layout)
        let (feeds, unreadable) = await manifests(in: scan, state: state)
        let content = await files
        var result = Result(feeds: feeds.count, items: feeds.reduce(0) { $0 + $1.items.count },
                            originals: content.originals.count, thumbnails: content.thumbnails.count)
        result.skipped = unreadable + content.rejected
        let resources = Self.resources(named: feeds, files: content, now: now)
        result.mediaURLs = resources.count
        let temp = layout.absolute("\(AtomicFile.tempPrefix)index-rebuild.sqlite")
        removeIndexFile(temp)
        try await write(to: temp, feeds: feeds, files: content, resources: resources, state: state)
        result.keptAs = try DamagedIndexFiles(layout: layout).replace(with: temp, at: now)
        return result
    }

    /// Every feed's manifest, read and decoded off the cooperative pool, in the order of their
    /// last syncs (a media URL two feeds name with different images keeps the later one's).
    private func manifests(in scan: DiskScan, state: SyncState?) async -> ([ManifestRows], [String]) {
        let paths = scan.files.keys.map(\.description).filter { path in
            let parts = path.split(separator: "/")
            return parts.count == 3 && parts[0] == CacheLayout.feedsFolder && parts[2] == CacheLayout.manifestFile
        }.sorted()
        let pool = BlockingPool(threads: 1, name: "photomirror.rebuild.manifests")
        defer { pool.shutdown() }
        var feeds: [ManifestRows] = []
        var unreadable: [String] = []
        for path in paths {
            do {
                guard let bytes = try await storage.read(path) else { continue }
                // The folder's name is the key its pages were written under (that of its URL).
                let key = String(path.split(separator: "/")[1])
                let rows = try await pool.run { () throws -> ManifestRows in
                    try ManifestRows.read(Data(bytes), key: key) { state?.feeds[$0]?.lastSync }
                }
                feeds.append(rows)
            } catch {
                unreadable.append("\(path): not a readable manifest (\(error)); its feed's next sync brings it back")
            }
        }
        return (feeds.sorted { ($0.feed.lastSync, $0.feed.key) < ($1.feed.lastSync, $1.feed.key) }, unreadable)
    }

    /// The media URL rows: each URL with a hash whose image has a file, the time of that file.
    static func resources(named feeds: [ManifestRows], files: ContentRows, now: Double) -> [ResourceRecord] {
        var stored: [String: (time: Double, contentType: String?)] = [:]
        for original in files.originals {
            stored[original.sha256] = (original.storedAt, ImageFormat.named(original.format)?.mimeType)
        }
        for thumbnail in files.thumbnails where stored[thumbnail.originalSHA256] == nil {
            stored[thumbnail.originalSHA256] = (thumbnail.storedAt, nil)
        }
        var byURL: [String: ResourceRecord] = [:]
        for feed in feeds {
            for media in feed.media {
                guard let file = stored[media.sha256] else { continue }
                byURL[media.url] = ResourceRecord(url: media.url, sha256: media.sha256, etag: media.etag,
                                                  lastModified: media.lastModified, contentType: file.contentType,
                                                  fetchedAt: file.time, lastAccess: file.time)
            }
        }
        return byURL.values.sorted { $0.url < $1.url }
    }

    private func write(to path: String, feeds: [ManifestRows], files: ContentRows, resources: [ResourceRecord],
                       state: SyncState?) async throws {
        let index = try PhotoIndex(path: path)
        await index.boundPageCache(kibibytes: PruneRun.pageCacheKibibytes)
        try await index.insertRebuiltFiles(originals: files.originals, thumbnails: files.thumbnails, resources: resources)
        for feed in feeds { try await index.replaceFeed(feed.feed, items: feed.items) }
        if let polls = state?.feedPolls { try await index.recordPolls(polls) }
        var meta: [String: String] = [:]
        if let size = state?.gallerySize ?? feeds.last(where: { $0.gallerySize != nil })?.gallerySize {
            meta[MetaKey.gallerySize] = size
        }
        if let counters = state?.lastSync { meta[MetaKey.lastSync] = counters.encoded() }
        if !meta.isEmpty { try await index.setMeta(meta) }
        try await index.detachLog()
    }

    private func removeIndexFile(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
