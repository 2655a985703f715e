import Foundation
import PMCache

/// `sync --max` while the sync stores: keeps the cache under its limit as it grows, not only
/// once the sync is done, so that a limit the disk can hold is never overrun on the way.
///
/// The cache's disk use is estimated, not walked, between batches: the index's sum of its files
/// (`storedFilesEstimate`) when the sync starts, plus the files of every batch committed since.
/// Once the estimate goes over the limit, a prune measures for real and trims to 80% of it
/// (`GoalRule.duringSync`), sparing everything the sync has used and everything its feeds list:
/// the images it stored or reused have a last access at or after its start, and its staged
/// feeds count as listing their items now. Files whose rows are not committed yet are not
/// garbage to that prune. A prune that could not reach its target (or failed) waits for a fifth
/// of the limit more before it walks again.
struct SyncPruning {
    let cache: OpenCache
    let limit: Int
    let clock: SyncClock
    /// The staged feeds of the sync.
    let feedKeys: Set<String>
    /// In a storage writers share: the sync's heartbeat, through which its prunes delete, and
    /// how long unreferenced objects are kept (`PruneRun`).
    var heartbeat: HeartbeatKeeper?
    var garbageGrace = SharedStorage.defaultGrace
    /// What the last measure (or the estimate at the start) found, and what was committed since.
    private var measured: Int
    private var addedSinceMeasure = 0
    /// The last prune could not reach its target (what is left is the sync's own): the next
    /// one waits for `step` more bytes rather than walk the cache after every batch.
    private var fellShort = false
    /// What the prunes did, together.
    private(set) var report: PruneReport?

    /// The least a sync stores between two measures of the cache.
    static let minimumStep = 256 << 10

    init(cache: OpenCache, limit: Int, clock: SyncClock, feedKeys: Set<String>) async {
        self.cache = cache
        self.limit = limit
        self.clock = clock
        self.feedKeys = feedKeys
        let files = (try? await cache.index.storedFilesEstimate()) ?? 0
        measured = files + Self.indexBytes(cache.layout)
    }

    /// A batch whose new files take `bytes` of disk was committed.
    mutating func committed(bytes: Int) {
        addedSinceMeasure += bytes
    }

    private var isDue: Bool { isOver(pending: 0) }

    /// Whether the cache, with `pending` bytes of files stored and not yet committed, is over
    /// the limit by enough to measure again: the sync then commits them and prunes at once
    /// rather than when the batch is due (`PendingWrites`).
    func isOver(pending: Int) -> Bool {
        let added = addedSinceMeasure + pending
        guard measured + added > limit else { return false }
        return !fellShort || added >= max(limit / 5, Self.minimumStep)
    }

    /// Prunes when the estimate went over the limit. Best effort: a prune that fails leaves the
    /// cache consistent, and the sync goes on (its final prune tries again).
    mutating func pruneIfDue() async {
        guard isDue else { return }
        let rule = GoalRule.duringSync(limit: limit, syncStart: clock.start, feedKeys: feedKeys)
        var run = PruneRun(layout: cache.layout, storage: cache.storage, index: cache.index, writer: cache)
        run.heartbeat = heartbeat
        run.garbageGrace = garbageGrace
        let done = try? await run.run(rule)
        // The prune widens the index's page cache for its scans; the sync goes back to its own.
        await cache.index.boundPageCache(SyncEngine.indexPageCache)
        addedSinceMeasure = 0
        guard let done else {
            fellShort = true
            return
        }
        measured = done.usageAfter
        fellShort = !done.reachedTarget
        // Measured under the limit after all: nothing was asked of the prune.
        guard done.target != nil else { return }
        if var total = report {
            total.absorb(done)
            report = total
        } else {
            report = done
        }
    }

    /// The index's files, which a prune's measure counts and the rows' sum does not.
    private static func indexBytes(_ layout: CacheLayout) -> Int {
        [layout.indexPath, layout.indexPath + "-wal", layout.reservePath].reduce(0) { total, path in
            var info = stat()
            return total + (lstat(path, &info) == 0 ? Int(info.st_blocks) * 512 : 0)
        }
    }
}

extension PruneReport {
    /// This report followed by `later`'s, as one: counts added, the usage from before the first
    /// to after the last.
    mutating func absorb(_ later: PruneReport) {
        originalsEvicted += later.originalsEvicted
        thumbnailsEvicted += later.thumbnailsEvicted
        expired += later.expired
        unlisted += later.unlisted
        garbageRemoved += later.garbageRemoved
        manifestsRewritten += later.manifestsRewritten
        failures += later.failures
        (usageAfter, reachedTarget) = (later.usageAfter, later.reachedTarget)
        limit = later.limit ?? limit
        target = later.target ?? target
    }
}
