import Foundation
import PMCache
import PMSupport

/// A cache opened for writing: its folder exists, the writer's lock is held, the index is open.
/// The lock is released when this value goes away.
struct OpenCache: Sendable {
    let layout: CacheLayout
    /// Nil only for a cache no other process can see (`inMemory`).
    let lock: CacheLock?
    let index: PhotoIndex
    /// Where the cache's content and published files go.
    let storage: any CacheStorage
    /// The disk had no room and the writer released its reserve to open the index: a prune
    /// then takes a small first step (`EvictionGoal.firstStep`).
    private(set) var releasedReserve = false

    /// `storage` makes the storage for the cache's layout: its folder by default.
    /// `releasingReserve`: a writer that frees space (prune) may use the disk's reserve when
    /// the disk is full (`SpaceReserve`); every writer puts it back once there is room.
    init(root: String, lockWait: Double, releasingReserve: Bool = false,
         storage makeStorage: (CacheLayout) -> any CacheStorage = { LocalStorage(layout: $0) }) throws(CacheCommandError) {
        layout = CacheLayout(root: root)
        do {
            try AtomicFile.makeDirectories(layout.root)
        } catch {
            throw CacheCommandError(description: "cannot create the cache folder: \(error)")
        }
        do {
            lock = try CacheLock(path: layout.lockPath, wait: lockWait)
        } catch {
            throw CacheCommandError(description: "\(layout.root): \(error)")
        }
        // Under the lock: a repair rebuilding a lost index holds it until the new one is in place.
        switch IndexPresence(layout) {
        case .lost: throw CacheCommandError(description: IndexPresence.lostMessage(layout))
        case .damaged(let error): throw CacheCommandError(description: error.description)
        case .present, .unstarted, .none: break
        }
        let reserve = SpaceReserve(layout: layout)
        if releasingReserve { releasedReserve = reserve.releaseIfShort() }
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            if error.mayBeNoSpace, !releasingReserve, reserve.diskIsShort {
                throw CacheCommandError(description: "cannot open the cache index: \(error); the disk holding \(layout.root) "
                    + "is full: `photomirror prune --max SIZE` or `verify --repair` can still run and free space")
            }
            throw CacheCommandError("cannot open the cache index", error)
        }
        reserve.restoreIfRoom()
        storage = makeStorage(layout)
    }

    /// A cache with its index in memory and no lock, for tests of the engine that touch no disk.
    init(inMemoryWith storage: any CacheStorage) throws(CacheCommandError) {
        layout = CacheLayout(root: "/nonexistent/photomirror-in-memory")
        lock = nil
        do {
            index = try PhotoIndex(path: ":memory:")
        } catch {
            throw CacheCommandError(description: "cannot open an in-memory index: \(error)")
        }
        self.storage = storage
    }

    /// A cache whose lock is held and whose index was just opened (a repair that rebuilt it).
    init(layout: CacheLayout, lock: CacheLock, index: PhotoIndex, storage: any CacheStorage) {
        self.layout = layout
        self.lock = lock
        self.index = index
        self.storage = storage
    }

    /// Opens a cache that must already exist (prune, `verify --repair`): never creates an empty one.
    static func existing(root: String, lockWait: Double, releasingReserve: Bool = false,
                         storage makeStorage: (CacheLayout) -> any CacheStorage = { LocalStorage(layout: $0) }) throws(CacheCommandError)
        -> OpenCache
    {
        try requireIndex(CacheLayout(root: root))
        return try OpenCache(root: root, lockWait: lockWait, releasingReserve: releasingReserve, storage: makeStorage)
    }

    /// Throws unless the folder has an index: "no cache here", or, when the cache's files are
    /// there without it, that `verify --repair` rebuilds it.
    static func requireIndex(_ layout: CacheLayout) throws(CacheCommandError) {
        switch IndexPresence(layout) {
        case .present: return
        case .lost: throw CacheCommandError(description: IndexPresence.lostMessage(layout))
        case .damaged(let error): throw CacheCommandError(description: error.description)
        case .none, .unstarted: throw CacheCommandError(description: IndexPresence.noCacheMessage(layout))
        }
    }
}
