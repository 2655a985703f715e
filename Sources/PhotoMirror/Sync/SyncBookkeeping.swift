import Foundation
import PMCache
import PMImaging

/// What a sync does for the cache's lifecycle besides mirroring: remember its counters for
/// `stats` and the gallery size for later republishing, and prune when over its size limit.
enum SyncBookkeeping {
    /// The limit a sync enforces: `sync --max`, else the cache's `max_size` setting, else none.
    static func sizeLimit(_ options: CacheOptions, layout: CacheLayout) throws(CacheCommandError) -> Int? {
        if let limit = options.maxSize { return limit }
        do {
            return try CacheConfig.load(layout: layout).maxSize
        } catch {
            throw CacheCommandError(description: "\(error)")
        }
    }

    /// Stores the last sync's counters and gallery size in `meta`. Best effort: stats are
    /// not worth failing a sync over.
    static func record(_ counts: SyncProgress, sizes: [ThumbnailSize], index: PhotoIndex) async {
        let counters = LastSyncCounters(at: Date().timeIntervalSince1970, media: counts.done,
                                        downloaded: counts.downloaded, reused: counts.reused, failed: counts.failed)
        var values = [MetaKey.lastSync: counters.encoded()]
        if let size = sizes.first { values[MetaKey.gallerySize] = size.description }
        try? await index.setMeta(values)
    }

    /// Prunes the sync's cache when it went over `limit`, holding the sync's lock throughout.
    /// `wentOver`: it did on the way, and was pruned then (`SyncPruning`).
    static func prune(cache: OpenCache, limit: Int, wentOver: Bool = false, garbageGrace: Double = SharedStorage.defaultGrace,
                      heartbeat: HeartbeatKeeper? = nil) async throws(CacheCommandError) -> PruneReport {
        do {
            return try await Pruner.afterSync(cache: cache, limit: limit, wentOver: wentOver, garbageGrace: garbageGrace,
                                              heartbeat: heartbeat)
        } catch {
            throw CacheCommandError("the sync finished, but pruning to the size limit failed", error)
        }
    }
}
