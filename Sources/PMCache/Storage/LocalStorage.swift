import Foundation
import PMSupport

/// A cache folder on a local file system: the default storage. Content files go through
/// `BlobStore` (`AtomicFile.create`: an unnamed file, then a link) on threads of its own, so no
/// blocking write runs on the cooperative pool; removal and inventory are `FileRemover` and
/// `DiskScan`.
public final class LocalStorage: CacheStorage {
    public let layout: CacheLayout
    private let blobs: BlobStore
    private let pool: BlockingPool

    /// False only to measure what durability costs (`Scripts/bench`): no flush before commits.
    private let durable: Bool

    /// `threads`: concurrent file writes and reads. Two keep a disk's queue busy while the codec
    /// threads work; more only contend for the same folders.
    public init(layout: CacheLayout, threads: Int = 2, durable: Bool = Durability.enabled) {
        self.layout = layout
        self.durable = durable
        blobs = BlobStore(layout: layout)
        pool = BlockingPool(threads: threads, name: "photomirror.files")
    }

    deinit { pool.shutdown() }

    public var location: String { layout.root }

    public func putContent(_ files: [ContentFile]) async throws(StorageError) {
        try await onPool { [blobs] () throws(FileError) in
            for file in files { try blobs.store(file.bytes, at: file.path) }
        }
    }

    public var blockingContent: (any BlockingContentWriting)? { blobs }

    public func read(_ path: String) async throws(StorageError) -> [UInt8]? {
        try await onPool { [blobs, layout] () throws(FileError) -> [UInt8]? in
            guard access(layout.absolute(path), F_OK) == 0 else { return nil }
            return try blobs.read(path)
        }
    }

    /// One `access` call: cheaper than a hop to the pool.
    public func exists(_ path: String) async throws(StorageError) -> Bool {
        access(layout.absolute(path), F_OK) == 0
    }

    /// Pages and manifests are small and written one at a time after the images: written on
    /// the calling task, as they are rendered, without a copy of the pieces.
    public func publish(_ path: String, _ mode: PublishMode, write: (_ append: ([UInt8]) throws -> Void) async throws -> Void)
        async throws -> Bool
    {
        let absolute = layout.absolute(path)
        do {
            try AtomicFile.makeDirectories((absolute as NSString).deletingLastPathComponent)
        } catch {
            throw StorageError(error)
        }
        switch mode {
        case .always:
            let file: AtomicFileWriter
            do { file = try AtomicFileWriter(path: absolute) } catch { throw StorageError(error) }
            try await write { (bytes) throws(StorageError) in
                do throws(FileError) { try file.append(bytes) } catch { throw StorageError(error) }
            }
            do { try file.commit() } catch { throw StorageError(error) }
            return true
        case .whenChanged:
            let file = AtomicFileRewriter(path: absolute)
            try await write { (bytes) throws(StorageError) in
                do throws(FileError) { try file.append(bytes) } catch { throw StorageError(error) }
            }
            do { return try file.commit() } catch { throw StorageError(error) }
        }
    }

    public func list(folder: String) async throws(StorageError) -> [String] {
        let absolute = layout.absolute(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else {
            if access(absolute, F_OK) != 0, errno == ENOENT { return [] }
            throw StorageError(FileError(path: absolute, operation: "list"))
        }
        return names.sorted().map { "\(folder)/\($0)" }
    }

    public func files(named name: String, below folder: String) async throws(StorageError) -> [String] {
        let absolute = layout.absolute(folder)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
        return entries.sorted().map { "\(folder)/\($0)/\(name)" }.filter { access(layout.absolute($0), F_OK) == 0 }
    }

    /// One syncfs(2) of the cache's file system per index batch: content files are written
    /// without a flush each (`BlobStore`), and one call then flushes them all, which costs far
    /// less than an fsync per file and its folder.
    public func makeDurable() async throws(StorageError) {
        guard durable else { return }
        try await onPool { [layout] () throws(FileError) in try FileSystemSync.flush(folder: layout.root) }
    }

    public func remove(_ paths: [CachePath]) async -> StorageRemoval {
        await FileRemover(layout: layout).remove(paths)
    }

    public func inventory() async throws(StorageError) -> DiskScan {
        try await onPool { [layout] () throws(FileError) in try DiskScan.measure(root: layout.root) }
    }

    /// The content files by the hash of their paths (`DiskScan.measure(compact:)`).
    public func compactInventory() async throws(StorageError) -> DiskScan {
        try await onPool { [layout] () throws(FileError) in try DiskScan.measure(root: layout.root, compact: true) }
    }

    /// The fan-out folders are not walked again (see `DiskScan.remeasure`): a few hundred
    /// entries, walked on the calling task.
    public func inventory(_ scan: DiskScan, afterRemoving removed: [CachePath]) async throws(StorageError) -> DiskScan {
        var scan = scan
        do { try scan.remeasure(afterRemoving: removed) } catch { throw StorageError(error) }
        return scan
    }

    private func onPool<T: Sendable>(_ work: @escaping @Sendable () throws(FileError) -> T) async throws(StorageError) -> T {
        do {
            return try await pool.run { try work() }
        } catch let error as FileError {
            throw StorageError(error)
        } catch {
            throw StorageError("\(layout.root): \(error)")
        }
    }
}
