import Foundation
import PMCache
import PMSupport

/// Where a damaged index goes when a rebuilt one takes its place: `index.sqlite.damaged-<UTC
/// time>` with its `-wal` and `-shm` beside it under the same name (so SQLite opens the copy as
/// it was, for whoever wants to look), kept until the next successful repair. `serve` and the
/// nginx template refuse every `index.sqlite*` name. The index is local, as the lock is, so
/// these are plain file operations in the cache folder.
struct DamagedIndexFiles: Sendable {
    let layout: CacheLayout

    static let marker = ".damaged-"
    static let logSuffixes = ["-wal", "-shm"]

    /// `index.sqlite.damaged-20261129T130000Z`. Pure.
    static func name(at time: Double) -> String {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                           Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return CacheLayout.indexFile + marker + stamp
    }

    /// Whether `name` is a kept damaged index or one of its logs. Pure.
    static func isDamagedCopy(_ name: String) -> Bool {
        name.hasPrefix(CacheLayout.indexFile + marker)
    }

    /// Puts `replacement` (a complete index file, no log) in the place of the index, keeping the
    /// old one (if any) and its logs under a damaged-copy name. The logs go first: a log left
    /// beside the new file would be read as its own. The index file is swapped in one rename
    /// (the old one kept by a hard link first), so no reader ever finds the cache without an
    /// index. Returns the kept copy's name, or nil when there was no index to keep.
    func replace(with replacement: String, at time: Double) throws(FileError) -> String? {
        var kept = Self.name(at: time)
        var suffix = 2
        while exists(kept) || Self.logSuffixes.contains(where: { exists(kept + $0) }) {
            kept = Self.name(at: time) + "-\(suffix)"
            suffix += 1
        }
        var keptSomething = false
        for log in Self.logSuffixes where exists(CacheLayout.indexFile + log) {
            try rename(CacheLayout.indexFile + log, to: kept + log)
            keptSomething = true
        }
        if exists(CacheLayout.indexFile) {
            if link(layout.indexPath, layout.absolute(kept)) != 0 {
                // A file system without hard links: move it aside, leaving a moment without an
                // index, which a writer (waiting for the lock) never sees and a reader reports.
                try rename(CacheLayout.indexFile, to: kept)
            }
            keptSomething = true
        }
        guard Glibc.rename(replacement, layout.indexPath) == 0 else {
            throw FileError(path: layout.indexPath, operation: "put the rebuilt index in place at")
        }
        syncFolder()
        return keptSomething ? kept : nil
    }

    /// Deletes the damaged copies kept from earlier repairs, all but `keeping`. Returns what it
    /// could not delete, with the reason.
    func removeEarlier(keeping: String?) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: layout.root)) ?? []
        var failures: [String] = []
        for name in names.sorted() where Self.isDamagedCopy(name) {
            if let keeping, name == keeping || Self.logSuffixes.contains(where: { name == keeping + $0 }) { continue }
            if unlink(layout.absolute(name)) != 0, errno != ENOENT {
                failures.append(FileError(path: layout.absolute(name), operation: "delete").description)
            }
        }
        return failures
    }

    private func exists(_ name: String) -> Bool {
        access(layout.absolute(name), F_OK) == 0
    }

    private func rename(_ name: String, to newName: String) throws(FileError) {
        guard Glibc.rename(layout.absolute(name), layout.absolute(newName)) == 0 else {
            throw FileError(path: layout.absolute(name), operation: "keep the damaged index file")
        }
    }

    /// The renames are the folder's: flushed with it, so a power cut does not undo one of them.
    private func syncFolder() {
        let fd = open(layout.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
