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

    /// `storage` makes the storage for the cache's layout: its folder by default.
    init(root: String, lockWait: Double,
         storage makeStorage: (CacheLayout) -> any CacheStorage = { LocalStorage(layout: $0) }) throws(SyncError) {
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
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            throw SyncError(description: "cannot open the cache index: \(error)")
        }
        storage = makeStorage(layout)
    }

    /// A cache with its index in memory and no lock, for tests of the engine that touch no disk.
    init(inMemoryWith storage: any CacheStorage) throws(SyncError) {
        layout = CacheLayout(root: "/nonexistent/photomirror-in-memory")
        lock = nil
        do {
            index = try PhotoIndex(path: ":memory:")
        } catch {
            throw SyncError(description: "cannot open an in-memory index: \(error)")
        }
        self.storage = storage
    }

    /// Opens a cache that must already exist (prune, `verify --repair`): never creates an empty one.
    static func existing(root: String, lockWait: Double,
                         storage makeStorage: (CacheLayout) -> any CacheStorage = { LocalStorage(layout: $0) }) throws(SyncError)
        -> OpenCache
    {
        try requireIndex(CacheLayout(root: root))
        return try OpenCache(root: root, lockWait: lockWait, storage: makeStorage)
    }

    static func requireIndex(_ layout: CacheLayout) throws(SyncError) {
        guard FileManager.default.fileExists(atPath: layout.indexPath) else {
            throw SyncError(description: "\(layout.root): no photomirror cache here (no \(CacheLayout.indexFile))")
        }
    }
}
