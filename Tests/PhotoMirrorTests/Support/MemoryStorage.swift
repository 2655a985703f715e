import PMCache
import Synchronization

/// A cache's files in memory: the storage seam's fake, for engine tests that touch no disk.
final class MemoryStorage: CacheStorage {
    private struct State {
        var files: [String: [UInt8]] = [:]
        var contentPuts = 0
        var publishes: [String] = []
        var failure: StorageError?
    }

    private let state = Mutex(State())

    var location: String { "memory:" }

    var files: [String: [UInt8]] { state.withLock { $0.files } }
    /// Content files actually written (not already present).
    var contentPuts: Int { state.withLock { $0.contentPuts } }
    /// Paths published whose bytes changed, in order.
    var publishes: [String] { state.withLock { $0.publishes } }

    /// Every later write fails with this (a full disk, say).
    func failWrites(with error: StorageError?) {
        state.withLock { $0.failure = error }
    }

    func putContent(_ files: [ContentFile]) async throws(StorageError) {
        try state.withLock { (state) throws(StorageError) in
            if let failure = state.failure { throw failure }
            for file in files where state.files[file.path] == nil {
                state.files[file.path] = file.bytes
                state.contentPuts += 1
            }
        }
    }

    func read(_ path: String) async throws(StorageError) -> [UInt8]? {
        state.withLock { $0.files[path] }
    }

    func exists(_ path: String) async throws(StorageError) -> Bool {
        state.withLock { $0.files[path] != nil }
    }

    func publish(_ path: String, _ mode: PublishMode, write: (_ append: ([UInt8]) throws -> Void) async throws -> Void) async throws -> Bool {
        var bytes: [UInt8] = []
        try await write { bytes += $0 }
        return try state.withLock { (state) throws(StorageError) in
            if let failure = state.failure { throw failure }
            if mode == .whenChanged, state.files[path] == bytes { return false }
            state.files[path] = bytes
            state.publishes.append(path)
            return true
        }
    }

    func list(folder: String) async throws(StorageError) -> [String] {
        state.withLock { state in
            state.files.keys.filter { $0.hasPrefix(folder + "/") && !$0.dropFirst(folder.count + 1).contains("/") }.sorted()
        }
    }

    func files(named name: String, below folder: String) async throws(StorageError) -> [String] {
        state.withLock { state in
            state.files.keys.filter { path in
                guard path.hasPrefix(folder + "/"), path.hasSuffix("/" + name) else { return false }
                return !path.dropFirst(folder.count + 1).dropLast(name.count + 1).contains("/")
            }.sorted()
        }
    }

    func remove(_ paths: [CachePath]) async -> StorageRemoval {
        state.withLock { state in
            for path in paths { state.files.removeValue(forKey: path.description) }
        }
        return StorageRemoval(removed: paths)
    }

    func inventory() async throws(StorageError) -> DiskScan {
        DiskScan(objects: state.withLock { $0.files.map { ($0.key, $0.value.count) } })
    }

    func inventory(_ scan: DiskScan, afterRemoving removed: [CachePath]) async throws(StorageError) -> DiskScan {
        scan.removing(removed)
    }
}
