import Foundation
import PMCache
import PMImaging

/// `photomirror verify --repair`: under the writers' lock, makes the cache one `verify` accepts.
///
/// A damaged or lost index is rebuilt first from the manifests and the content files
/// (`IndexRebuilder`; the damaged file is kept beside it until the next successful repair), and
/// every feed's manifest, JSON Feed and pages are written again from it. Then, as for any
/// cache: rows of missing or wrong files are dropped (their items then read as
/// `evicted-original` or `evicted`, and the next sync that lists them fetches them again),
/// manifests, JSON Feeds and the gallery are rewritten from the index, and only then are wrong
/// files, orphans and temp files deleted — the same crash-safe order as prune.
public struct Repairer: Sendable {
    public let cacheRoot: String
    public var lockWait: Double = 5
    /// Where the cache's files live. A lost or damaged index is rebuilt only from a cache
    /// folder's files.
    public var store = StoreChoice.folder
    /// SQLite's `integrity_check` on the index instead of `quick_check`.
    public var deep = false
    /// Seconds an unreferenced object of a shared storage is kept (`--garbage-grace`).
    public var garbageGrace = SharedStorage.defaultGrace

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public struct Result: Sendable {
        /// What verify found before repairing.
        public var found: VerifyReport
        /// What verify finds after.
        public var after: VerifyReport
        public var rowsDropped = 0
        public var filesDeleted = 0
        public var manifestsRewritten = 0
        /// Feeds whose manifest the index had lost, adopted back with their files (a cache folder).
        public var feedsAdopted = 0
        /// Files that could not be deleted, with the reason.
        public var failures: [String] = []
        /// What the rebuild of a damaged or lost index found; nil when the index was sound.
        public var rebuilt: Rebuild?
    }

    public struct Rebuild: Sendable {
        public var feeds = 0
        public var items = 0
        public var originals = 0
        public var thumbnails = 0
        public var mediaURLs = 0
        /// The damaged index's name now, in the cache folder; nil when there was none (lost).
        public var keptAs: String?
        /// Manifests and content files that gave no rows, with the reason.
        public var skipped: [String] = []
        public var seconds = 0.0
    }

    public func run() async throws(CacheCommandError) -> Result {
        let layout = CacheLayout(root: cacheRoot)
        switch IndexPresence(layout) {
        case .none: throw CacheCommandError(description: IndexPresence.noCacheMessage(layout))
        case .unstarted: return Result(found: VerifyReport(), after: VerifyReport())
        case .present, .lost, .damaged: break
        }
        let lock: CacheLock
        do {
            lock = try CacheLock(path: layout.lockPath, wait: lockWait)
        } catch {
            throw CacheCommandError(description: "\(layout.root): \(error)")
        }
        // A repair frees space: on a full disk it may use the reserve, given back at the end.
        let reserve = SpaceReserve(layout: layout)
        reserve.releaseIfShort()
        defer { reserve.restoreIfRoom() }
        // Checked under the lock: no writer changes the index between the check and the repair.
        let health = try await IndexHealth.check(layout, deep: deep)
        var found: VerifyReport?
        var rebuilt: Rebuild?
        if let line = health.damageLine {
            guard store == .folder else {
                throw CacheCommandError(description: "\(line); an index is rebuilt from a cache folder's files, not from \(store.description)")
            }
            found = VerifyReport(indexDamage: line)
            rebuilt = try await rebuild(layout)
            // The rebuild's rows and hashes are gone; the republishing and checks need their own.
            FreedMemory.release()
        }
        let index: PhotoIndex
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            throw CacheCommandError("cannot open the cache index", error)
        }
        let (storage, shutdown) = store.standalone(layout: layout)
        defer { shutdown() }
        let cache = OpenCache(layout: layout, lock: lock, index: index, storage: storage)
        // In a shared storage: announced, and deleting only if no other writer is live (`WriterHeartbeat`).
        let heartbeat: HeartbeatKeeper?
        let deletes: Bool
        do {
            heartbeat = try await HeartbeatKeeper.start(storage, command: "repair")
            deletes = try await heartbeat?.beginDeleting() ?? true
        } catch {
            throw CacheCommandError(description: "cannot announce the repair in \(storage.location): \(error)")
        }
        defer { heartbeat?.stopRefreshing() }
        do {
            var result: Result
            do {
                result = try await repair(cache, found: found, rebuilt: rebuilt != nil, deletes: deletes)
                await heartbeat?.finish()
            } catch {
                await heartbeat?.finish()
                throw error
            }
            result.rebuilt = rebuilt
            if result.after.isHealthy {
                result.failures += DamagedIndexFiles(layout: layout).removeEarlier(keeping: rebuilt?.keptAs)
            }
            await SyncState.save(from: cache.index, to: LocalStorage(layout: cache.layout))
            return result
        } catch let error as IndexError where error.isDamage {
            throw CacheCommandError(description: error.description)
        } catch {
            throw CacheCommandError(description: "repair stopped: \(error); the cache is consistent, run verify --repair again")
        }
    }

    private func rebuild(_ layout: CacheLayout) async throws(CacheCommandError) -> Rebuild {
        let started = Date()
        do {
            let made = try await IndexRebuilder(layout: layout, storage: LocalStorage(layout: layout)).run()
            return Rebuild(feeds: made.feeds, items: made.items, originals: made.originals, thumbnails: made.thumbnails,
                           mediaURLs: made.mediaURLs, keptAs: made.keptAs, skipped: made.skipped,
                           seconds: Date().timeIntervalSince(started))
        } catch {
            throw CacheCommandError(description: "rebuilding the index stopped: \(error); nothing was changed, "
                + "run verify --repair again")
        }
    }

    /// The repair of a cache whose index is sound (or was just rebuilt, when every feed's files
    /// are written again first).
    private func repair(_ cache: OpenCache, found: VerifyReport?, rebuilt: Bool, deletes: Bool) async throws -> Result {
        if rebuilt { try await Republisher(cache: cache).republishAll() }
        // Before any garbage goes: a killed writer's manifests may still name its files.
        try await Republisher(cache: cache).payOwedDocuments()
        let adopted = try await adoptUnindexedFeeds(cache)
        let inspection = CacheInspection(layout: cache.layout, index: cache.index, storage: cache.storage, deep: deep)
        let inspected = try await inspection.run()
        var result = Result(found: found ?? adopted?.found ?? inspected, after: inspected)
        if rebuilt { result.manifestsRewritten = try await cache.index.feeds().count }
        result.feedsAdopted = adopted?.keys.count ?? 0
        let findings = inspected.findings
        guard !findings.isEmpty else { return result }
        // The inspection read with a small page cache; dropping many rows wants a prune's.
        await cache.index.boundPageCache(kibibytes: PruneRun.pageCacheKibibytes)
        let lostOriginals = findings.originals.map { ImageHash($0) }
        _ = try await cache.index.dropRows(originals: lostOriginals,
                                           thumbnails: findings.thumbnails.map { (ImageHash($0.sha256), $0.size) })
        // Damage is not an eviction: the next plain sync downloads these originals again.
        try await cache.index.forgetMediaURLs(of: lostOriginals)
        result.rowsDropped = findings.originals.count + findings.thumbnails.count
        if result.rowsDropped > 0 || findings.pagesDamaged || findings.documentsStale {
            try await Republisher(cache: cache).republishAll()
            result.manifestsRewritten = try await cache.index.feeds().count
        }
        let doomed = deletes ? findings.damagedFiles + (try await collectable(findings.garbage, in: cache.storage)) : []
        result.failures = await cache.storage.remove(doomed.map { CachePath($0) }).failures
        result.filesDeleted = doomed.count - result.failures.count
        await cache.index.checkpoint()
        result.after = try await inspection.run()
        return result
    }

    /// In a cache folder, the feeds whose manifest the index lost are adopted back (with what
    /// verify found before), then republished from their new rows. Nil when there were none.
    private func adoptUnindexedFeeds(_ cache: OpenCache) async throws -> (found: VerifyReport, keys: [String])? {
        guard !cache.storage.sharedByWriters else { return nil }
        let layout = cache.layout
        let ownFeedKeys = Set(try await cache.index.feeds().map(\.key))
        let unindexed = try await UnindexedFeeds.find(in: cache.storage, ownFeedKeys: ownFeedKeys) {
            access(layout.absolute($0), F_OK) == 0
        }
        guard !unindexed.feeds.isEmpty else { return nil }
        let found = try await CacheInspection(layout: cache.layout, index: cache.index, storage: cache.storage, deep: deep).run()
        let keys = try await unindexed.adopt(into: cache.index, layout: cache.layout)
        try await Republisher(cache: cache).republish(feedKeys: keys)
        return (found, keys)
    }

    /// The garbage that may go now: all of it in a folder; in a shared storage only what is past
    /// the grace period, while no other writer is live (`SharedStorage`).
    private func collectable(_ garbage: [String], in storage: any CacheStorage) async throws -> [String] {
        guard storage.sharedByWriters, !garbage.isEmpty else { return garbage }
        let scan = try await storage.inventory()
        let files = garbage.map { CachedFile(path: CachePath($0), diskBytes: scan.diskBytes($0) ?? 0) }
        return SharedStorage(isShared: true, grace: garbageGrace)
            .collectable(files, scan: scan, now: Date().timeIntervalSince1970).map(\.path.description)
    }
}
