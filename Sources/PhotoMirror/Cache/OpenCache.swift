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
        do {
            index = try PhotoIndex(path: layout.indexPath)
        } catch {
            throw SyncError(description: "cannot open the cache index: \(error)")
        }
        store = BlobStore(layout: layout)
        storage = LocalStorage(layout: layout)
    }

    /// Opens a cache that must already exist (prune, `verify --repair`): never creates an empty one.
    static func existing(root: String, lockWait: Double) throws(SyncError) -> OpenCache {
        try requireIndex(CacheLayout(root: root))
        return try OpenCache(root: root, lockWait: lockWait)
    }

    static func requireIndex(_ layout: CacheLayout) throws(SyncError) {
        guard FileManager.default.fileExists(atPath: layout.indexPath) else {
            throw SyncError(description: "\(layout.root): no photomirror cache here (no \(CacheLayout.indexFile))")
        }
    }
}
