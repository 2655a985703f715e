import Foundation
import PMCache

/// Gathers `photomirror stats` from the index's aggregates and one walk of the folder. Read-only:
/// never waits for a writer.
public struct CacheStats: Sendable {
    public let cacheRoot: String
    /// Where the cache's files live: their use is the folder's or the bucket's.
    public var store = StoreChoice.folder
    /// Receives the one line said when the index could only be read as a snapshot.
    public var note: @Sendable (String) -> Void = { _ in }

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public func run() async throws(CacheCommandError) -> StatsReport {
        let cache = try ReadOnlyCache(root: cacheRoot, note: note)
        do {
            let totals = try await cache.index.totals()
            var report = StatsReport()
            report.feeds = totals.feeds
            report.items = totals.items
            report.itemsByStatus = totals.itemsByStatus
            report.mediaURLs = totals.mediaURLs
            report.originals = .init(count: totals.originals, bytes: totals.originalBytes)
            report.thumbnails = .init(count: totals.thumbnails, bytes: totals.thumbnailBytes)
            report.oldestAccess = totals.oldestAccess.map(W3CTimestamp.format)
            report.newestAccess = totals.newestAccess.map(W3CTimestamp.format)
            if let counters = LastSyncCounters.decode(try await cache.index.meta(MetaKey.lastSync)) {
                report.lastSync = .init(at: W3CTimestamp.format(counters.at), media: counters.media,
                                        downloaded: counters.downloaded, reused: counters.reused,
                                        failed: counters.failed, hitRatio: counters.hitRatio)
            }
            report.maxSize = try? CacheConfig.load(layout: cache.layout).maxSize
            let (storage, shutdown) = store.standalone(layout: cache.layout)
            defer { shutdown() }
            // A folder's content files are counted, not listed: 100 000 images listed by path
            // took 80 MB. A shared storage's share needs the listing.
            let scan = storage.sharedByWriters ? try await storage.inventory() : try await storage.compactInventory()
            report.disk = Self.diskByKind(scan)
            if storage.sharedByWriters { report.shared = try await Self.sharing(scan, storage: storage, index: cache.index) }
            return report
        } catch let error as CacheCommandError {
            throw error
        } catch {
            throw CacheCommandError("cannot read the cache", error)
        }
    }

    /// This writer's share of a storage others share, as a prune counts it against its limit.
    static func sharing(_ scan: DiskScan, storage: any CacheStorage, index: PhotoIndex) async throws -> StatsReport.Shared {
        let images = try await index.evictionImages()
        let ownFeedKeys = Set(try await index.feeds().map(\.key))
        let (owned, others) = SharedStorage(isShared: true, grace: SharedStorage.defaultGrace)
            .owned(scan, images: images, ownFeedKeys: ownFeedKeys, collectable: [])
        let now = Date().timeIntervalSince1970
        let live = try await WriterHeartbeat.all(in: storage, except: nil).filter { $0.isLive(at: now) }.count
        return StatsReport.Shared(owned: owned.usage, others: others, liveWriters: live)
    }

    static func diskByKind(_ scan: DiskScan) -> StatsReport.Disk {
        var disk = StatsReport.Disk()
        disk.total = scan.usage
        disk.originals = scan.contentKinds.originals
        disk.thumbnails = scan.contentKinds.thumbnails
        for (key, bytes) in scan.files where key.isOriginal == nil {
            let path = key.description
            if path.hasPrefix(CacheLayout.indexFile) {
                disk.index += bytes
            } else if path == CacheLayout.galleryFile || path.hasPrefix(CacheLayout.feedsFolder + "/") {
                disk.pages += bytes
            }
        }
        // Folders and anything unclassified: the rest of the measured total.
        disk.other = disk.total - disk.originals - disk.thumbnails - disk.index - disk.pages
        return disk
    }
}
