import Foundation
import PMSupport
import Synchronization

/// Writes and reads the cache's content-addressed files. Blocking: callers run it on a
/// `BlockingPool` thread, never on the cooperative pool.
public final class BlobStore: Sendable {
    public let layout: CacheLayout
    // Folders known to exist, so a sync of thousands of files makes each folder once.
    private let madeFolders = Mutex<Set<String>>([])

    public init(layout: CacheLayout) {
        self.layout = layout
    }

    /// Stores `bytes` at `relativePath` atomically (`AtomicFile.create`). A file already there has
    /// the same content (its name is its hash), so it is left alone.
    public func store(_ bytes: some ContiguousBytes, at relativePath: String) throws(FileError) {
        let path = layout.absolute(relativePath)
        let folder = path.parentFolder
        if !madeFolders.withLock({ $0.contains(folder) }) {
            try AtomicFile.makeDirectories(folder)
            _ = madeFolders.withLock { $0.insert(folder) }
        }
        try AtomicFile.create(bytes, at: path, sync: false)
    }

    public func read(_ relativePath: String) throws(FileError) -> [UInt8] {
        let path = layout.absolute(relativePath)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, operation: "read", code: access(path, R_OK) == 0 ? EIO : errno)
        }
        return [UInt8](data)
    }
}

extension BlobStore: BlockingContentWriting {
    public func putContentNow(_ files: [ContentFile]) throws(StorageError) {
        do throws(FileError) {
            for file in files { try store(file.bytes, at: file.path) }
        } catch {
            throw StorageError(error)
        }
    }
}
