import CSQLite
import Foundation
import PMSupport

extension CacheLayout {
    /// The preallocated file that holds back disk space for a prune or repair (`SpaceReserve`).
    public static let reserveFile = "space-reserve"

    public var reservePath: String { absolute(Self.reserveFile) }
}

/// A file of preallocated blocks beside the index, which writers keep in place while the
/// disk has room. When a sync (or anything else) fills the disk, nothing can free space without
/// first taking some: opening the index in WAL mode creates its `-shm` (32 KiB), dropping rows
/// appends to the `-wal`, and every manifest and page a prune rewrites goes to a temp file
/// before the old one's blocks are released. `prune` and `verify --repair` release the reserve
/// when the disk is short of it, before they open the index; every writer puts it back once the
/// disk has room for it and as much again (`restoreIfRoom`).
///
/// Its size follows the index's: at least twice the index file (a prune's log and the pages it
/// rewrites grow with the cache), from 256 KiB (the `-shm`, a few pages of log and a few small
/// manifests) up to 4 MiB, so that a small cache is not made much larger by it. Its blocks count in the cache's disk use like any
/// other file (`du` sees them). Crash-safe:
/// it is allocated under a temp name and renamed into place, so a killed writer leaves at worst
/// a temp file, which `verify` reports as garbage like any other.
public struct SpaceReserve: Sendable {
    public static let minimumBytes = 256 << 10
    public static let maximumBytes = 4 << 20

    public let path: String
    public let bytes: Int

    /// The reserve for the cache's index as it is now.
    public init(layout: CacheLayout) {
        var index = stat()
        let indexBytes = lstat(layout.indexPath, &index) == 0 ? Int(index.st_size) : 0
        self.init(layout: layout, bytes: Self.bytes(forIndexBytes: indexBytes))
    }

    public init(layout: CacheLayout, bytes: Int) {
        path = layout.reservePath
        self.bytes = bytes
    }

    /// The least power of two times the minimum that holds twice the index, up to the maximum:
    /// in steps, so that caches of about the same size (and the same cache as its index grows a
    /// little) keep the same reserve.
    public static func bytes(forIndexBytes indexBytes: Int) -> Int {
        var bytes = minimumBytes
        while bytes < 2 * indexBytes, bytes < maximumBytes { bytes *= 2 }
        return bytes
    }

    /// Whether the whole reserve is allocated in place (a file cut short by a crash is not, nor
    /// one made for a smaller index).
    public var isInPlace: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_blocks) * 512 >= bytes
    }

    /// Bytes an unprivileged writer can still allocate on the reserve's file system; nil when
    /// the folder cannot be examined.
    public var freeBytes: Int? {
        var info = statvfs()
        guard statvfs(path.parentFolder, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// The disk has less room than the reserve holds: a writer about to delete should release it.
    public var diskIsShort: Bool { (freeBytes ?? .max) < bytes }

    /// Deletes the reserve; returns whether there was one.
    @discardableResult
    public func release() -> Bool {
        unlink(path) == 0
    }

    /// Releases the reserve when the disk is short of room: what prune and repair do before
    /// they open the index. Returns whether it did.
    @discardableResult
    public func releaseIfShort() -> Bool {
        diskIsShort && release()
    }

    /// Allocates the reserve when it is not in place and the disk has room for it twice over, so
    /// that what is left after it is still as much. Best effort: a reserve that cannot be made
    /// now is made by a later writer. Returns whether it is in place afterwards.
    @discardableResult
    public func restoreIfRoom() -> Bool {
        if isInPlace { return true }
        var held = 0
        var info = stat()
        if lstat(path, &info) == 0 { held = Int(info.st_blocks) * 512 }
        guard let free = freeBytes, free + held >= 2 * bytes else { return false }
        return (try? allocate()) != nil
    }

    /// Allocates the reserve under a temp name, then renames it into place.
    func allocate() throws(FileError) {
        let temp = path.parentFolder + "/" + AtomicFile.tempPrefix + CacheLayout.reserveFile + "-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: temp, operation: "create") }
        // posix_fallocate returns the error instead of setting errno.
        let failure = posix_fallocate(fd, 0, off_t(bytes))
        close(fd)
        guard failure == 0 else {
            unlink(temp)
            throw FileError(path: temp, operation: "allocate", code: failure)
        }
        guard rename(temp, path) == 0 else {
            let error = FileError(path: path, operation: "rename")
            unlink(temp)
            throw error
        }
    }
}

extension IndexError {
    /// What SQLite says when the disk is full: SQLITE_FULL, or SQLITE_IOERR when not even the
    /// `-shm` could be sized.
    public var mayBeNoSpace: Bool { [SQLITE_FULL, SQLITE_IOERR].contains(code & 0xff) }
}
