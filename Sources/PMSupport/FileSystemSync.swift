import Foundation

/// syncfs(2): flushes every dirty page of the file system holding a descriptor. glibc declares
/// it only under _GNU_SOURCE, which Swift's Glibc module is not built with, so it is looked up
/// by name once. Nil on a libc without it.
public enum FileSystemSync {
    private typealias SyncFS = @convention(c) (Int32) -> Int32

    private static let function: SyncFS? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: SyncFS.self)
    }()

    /// Flushes the file system of `path`'s folder; falls back to sync(2), which flushes them all.
    public static func flush(folder path: String) throws(FileError) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw FileError(path: path, operation: "open for syncfs") }
        defer { close(folder) }
        guard let function else {
            sync()
            return
        }
        guard function(folder) == 0 else { throw FileError(path: path, operation: "syncfs") }
    }
}
