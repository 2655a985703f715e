import Foundation
import PMCache
import PMImaging
import PMSupport

/// `photomirror prune`: brings the cache under a size limit and expires images by age, least
/// recently used first (the policy is `EvictionPolicy`; this type does the effects).
public struct Pruner: Sendable {
    public let cacheRoot: String
    /// Bound on the whole cache folder's disk use; nil takes the cache's `max_size` setting.
    public var maxSize: Int?
    /// Expire images no sync has listed for this many seconds.
    public var maxAge: Double?
    public var dryRun = false
    /// Seconds to wait for another writer's lock.
    public var lockWait: Double = 5
    /// Where the cache's files live.
    public var store = StoreChoice.folder
    /// Seconds an unreferenced object of a shared storage is kept (`--garbage-grace`).
    public var garbageGrace = SharedStorage.defaultGrace
    /// Receives the one line a dry run says when the index could only be read as a snapshot.
    public var note: @Sendable (String) -> Void = { _ in }

    /// glibc arenas a prune's threads share (`FreedMemory.limitArenas`): one per core here.
    static let arenas = 2

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public func run() async throws(CacheCommandError) -> PruneReport {
        let layout = CacheLayout(root: cacheRoot)
        var limit = maxSize
        if limit == nil {
            do {
                limit = try CacheConfig.load(layout: layout).maxSize
            } catch {
                throw CacheCommandError(description: "\(error)")
            }
        }
        guard limit != nil || maxAge != nil else {
            throw CacheCommandError(description: "nothing to prune to: give --max SIZE or --max-age DURATION, "
                + "or set max_size in \(layout.absolute(CacheConfig.fileName))")
        }
        let goal = GoalRule.prune(limit: limit, maxAge: maxAge)
        FreedMemory.limitArenas(to: Self.arenas)
        // Its columns of 100 000 images and the plan's lists are megabytes each: mapped on their
        // own, they go back when freed, instead of raising glibc's threshold and staying.
        FreedMemory.mapLargeAllocations()
        let (storage, shutdown) = store.standalone(layout: layout)
        defer { shutdown() }
        do {
            if dryRun {
                let cache = try ReadOnlyCache(root: cacheRoot, note: note)
                var run = PruneRun(layout: layout, storage: storage, index: cache.index, writer: nil)
                run.garbageGrace = garbageGrace
                return try await run.run(goal)
            }
            let cache = try OpenCache.existing(root: cacheRoot, lockWait: lockWait, releasingReserve: true) { _ in storage }
            let heartbeat = try await HeartbeatKeeper.start(cache.storage, command: "prune")
            var run = PruneRun(layout: layout, storage: cache.storage, index: cache.index, writer: cache)
            run.garbageGrace = garbageGrace
            run.heartbeat = heartbeat
            do {
                let report = try await run.run(goal)
                await heartbeat?.finish()
                return report
            } catch {
                await heartbeat?.finish()
                throw error
            }
        } catch let error as CacheCommandError {
            throw error
        } catch let error as IndexError where error.isDamage {
            throw CacheCommandError(description: error.description)
        } catch {
            throw CacheCommandError(description: "prune stopped: \(error); the cache is consistent (verify --repair removes leftovers)")
        }
    }

    /// The prune after a sync, on the sync's open cache: the same rule as `prune --max`
    /// (`EvictionGoal.limit`), and down to 80% also when the sync went over on the way.
    static func afterSync(cache: OpenCache, limit: Int, wentOver: Bool = false, garbageGrace: Double = SharedStorage.defaultGrace,
                          heartbeat: HeartbeatKeeper? = nil) async throws -> PruneReport {
        var run = PruneRun(layout: cache.layout, storage: cache.storage, index: cache.index, writer: cache)
        run.garbageGrace = garbageGrace
        run.heartbeat = heartbeat
        return try await run.run(.afterSync(limit: limit, wentOver: wentOver))
    }
}

/// How the goal follows from the disk use measured when the prune starts.
enum GoalRule: Sendable {
    case prune(limit: Int?, maxAge: Double?)
    case afterSync(limit: Int, wentOver: Bool = false)
    /// Between a sync's batches (`SyncPruning`): the sync's feeds list their items as of
    /// `syncStart`, and nothing used since goes.
    case duringSync(limit: Int, syncStart: Double, feedKeys: Set<String>)

    var limit: Int? {
        switch self {
        case .prune(let limit, _): limit
        case .afterSync(let limit, _): limit
        case .duringSync(let limit, _, _): limit
        }
    }

    /// A sync is storing files meanwhile: the ones whose rows are not committed yet are not
    /// garbage, and its feeds without pages yet get no card.
    var isDuringSync: Bool {
        if case .duringSync = self { return true }
        return false
    }

    /// The feeds whose items count as listed now, and since when.
    var listing: (feedKeys: Set<String>, since: Double) {
        if case .duringSync(_, let start, let keys) = self { return (keys, start) }
        return ([], 0)
    }

    func goal(usage: Int, now: Double) -> EvictionGoal {
        switch self {
        case .prune(let limit, let maxAge): EvictionGoal.prune(limit: limit, maxAge: maxAge, usage: usage, now: now)
        case .afterSync(let limit, let wentOver): EvictionGoal.afterSync(limit: limit, usage: usage, wentOver: wentOver)
        case .duringSync(let limit, let start, _): EvictionGoal.duringSync(limit: limit, usage: usage, syncStart: start)
        }
    }
}
