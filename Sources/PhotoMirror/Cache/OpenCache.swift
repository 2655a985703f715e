import Foundation
import PMCache
import PMSupport

/// A cache opened for writing: its folder exists, the writer's lock is held, the index is open.
/// The lock is released when this value goes away.
struct OpenCache: Sendable {
    let layout: CacheLayout
    let lock: CacheLock
    let index: PhotoIndex
    let store: BlobStore
    /// Where the cache's content and published files go.
    let storage: any CacheStorage

    init(root: String, lockWait: Double) throws(SyncError) {
        layout = CacheLayout(root: root)
        do {
            try AtomicFile.makeDirectories(layout.root)
        } catch {
            throw SyncError(description: "cannot create the cache folder: \(error)")
        }
        do {
            lock = try CacheLock(path: layout.lockPath, wait: lockWait)
        } catch {
            throw SyncError(description: "\(layout.root): \(error)")
        }
        // Under the lock: a repair rebuilding a lost index holds it until the new one is in place.
        if case .lost = IndexPresence(layout) { throw SyncError(description: IndexPresence.lostMessage(layout)) }
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            throw SyncError("cannot open the cache index", error)
        }
        store = BlobStore(layout: layout)
        storage = LocalStorage(layout: layout)
    }

    /// A cache whose lock is held and whose index was just opened (a repair that rebuilt it).
    init(layout: CacheLayout, lock: CacheLock, index: PhotoIndex) {
        self.layout = layout
        self.lock = lock
        self.index = index
        store = BlobStore(layout: layout)
        storage = LocalStorage(layout: layout)
    }

    /// Opens a cache that must already exist (prune): never creates an empty one.
    static func existing(root: String, lockWait: Double) throws(SyncError) -> OpenCache {
        try requireIndex(CacheLayout(root: root))
        return try OpenCache(root: root, lockWait: lockWait)
    }

    /// Throws unless the folder has an index: "no cache here", or, when the cache's files are
    /// there without it, that `verify --repair` rebuilds it.
    static func requireIndex(_ layout: CacheLayout) throws(SyncError) {
        switch IndexPresence(layout) {
        case .present: return
        case .lost: throw SyncError(description: IndexPresence.lostMessage(layout))
        case .none: throw SyncError(description: IndexPresence.noCacheMessage(layout))
        }
    }
}
