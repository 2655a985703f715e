import Foundation
import PMSupport

/// Deletes many cache files off the cooperative pool, then the fan-out folders they leave
/// empty (an empty folder still costs a block in `du`).
///
/// Each lane takes whole folders, so no two threads contend for one directory's lock, and
/// unlinks by name relative to the folder's descriptor: no path walk and, for content files, no
/// heap String per file (their names are spelled on the stack from the packed path).
struct FileRemover: Sendable {
    /// More lanes than cores: on a disk, an unlink can wait for the journal.
    static let threads = 8
    let layout: CacheLayout

    typealias Outcome = StorageRemoval

    /// One folder and where its files are in the grouped paths.
    struct FolderJob: Sendable {
        var folder: String
        var files: Range<Int>
    }

    /// Removes `paths` (relative to the cache root); a file already gone is fine.
    func remove(_ paths: [CachePath]) async -> Outcome {
        let (grouped, jobs) = Self.byFolder(paths)
        guard !jobs.isEmpty else { return Outcome() }
        let lanes = min(Self.threads, jobs.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.remove")
        defer { pool.shutdown() }
        let failures = await withTaskGroup(of: [(Int, String)].self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: jobs.count, by: lanes).map { jobs[$0] }
                group.addTask { [layout] in
                    (try? await pool.run { Self.remove(share, of: grouped, layout: layout) }) ?? share.flatMap { job in
                        job.files.map { ($0, "\(grouped[$0]): not removed") }
                    }
                }
            }
            var failures: [(Int, String)] = []
            for await part in group { failures += part }
            return failures
        }
        // Every path but the failed ones is gone: the grouped array itself when none failed.
        guard !failures.isEmpty else { return Outcome(removed: grouped) }
        let failed = Set(failures.map(\.0))
        return Outcome(removed: grouped.indices.filter { !failed.contains($0) }.map { grouped[$0] },
                       failures: failures.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// The paths grouped by folder, each folder's adjacent in the order folders first appear,
    /// and a job per folder; a content file's folder is told by its packed name, not spelled.
    /// One array of the paths in all, shared by the threads: not a list per folder.
    static func byFolder(_ paths: [CachePath]) -> (paths: [CachePath], jobs: [FolderJob]) {
        var folders: [String] = [], counts: [Int] = []
        var groups: [Int32] = []
        groups.reserveCapacity(paths.count)
        var contentGroups: [UInt64: Int32] = [:], textGroups: [Substring: Int32] = [:]
        func group(_ folder: @autoclosure () -> String) -> Int32 {
            folders.append(folder())
            counts.append(0)
            return Int32(folders.count - 1)
        }
        for path in paths {
            let number: Int32
            switch path {
            case .content(let name):
                if let found = contentGroups[name.folderID] {
                    number = found
                } else {
                    number = group(name.folder)
                    contentGroups[name.folderID] = number
                }
            case .text(let text):
                let folder = text[..<(text.utf8.lastIndex(of: UInt8(ascii: "/")) ?? text.startIndex)]
                if let found = textGroups[folder] {
                    number = found
                } else {
                    number = group(String(folder))
                    textGroups[folder] = number
                }
            }
            groups.append(number)
            counts[Int(number)] += 1
        }
        // A counting sort by folder: each path goes straight to its folder's next place.
        var starts = [Int](repeating: 0, count: folders.count)
        for index in folders.indices.dropFirst() { starts[index] = starts[index - 1] + counts[index - 1] }
        let jobs = folders.indices.map { FolderJob(folder: folders[$0], files: starts[$0]..<(starts[$0] + counts[$0])) }
        guard let first = paths.first else { return ([], []) }
        var grouped = [CachePath](repeating: first, count: paths.count)
        for (path, number) in zip(paths, groups) {
            grouped[starts[Int(number)]] = path
            starts[Int(number)] += 1
        }
        return (grouped, jobs)
    }

    /// Unlinks each job's files; the ones that failed, by their place in `paths`, with the reason.
    private static func remove(_ jobs: [FolderJob], of paths: [CachePath], layout: CacheLayout) -> [(Int, String)] {
        var failures: [(Int, String)] = []
        for job in jobs {
            let descriptor = open(layout.absolute(job.folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            let openError = descriptor < 0 ? errno : 0
            for index in job.files {
                let error = descriptor < 0 ? openError : unlink(paths[index], in: descriptor, folder: job.folder)
                if error != 0, error != ENOENT {
                    failures.append((index, "\(paths[index]): \(String(cString: strerror(error)))"))
                }
            }
            if descriptor >= 0 { close(descriptor) }
            // Only the fan-out level: `originals/ab`, `thumbs/40x40/ab`. rmdir refuses a folder
            // that still has files, which is exactly the check wanted.
            if isFanOut(job.folder) { rmdir(layout.absolute(job.folder)) }
        }
        return failures
    }

    /// Unlinks `path` by its name in `folder` (open as `descriptor`); 0 or the errno.
    private static func unlink(_ path: CachePath, in descriptor: Int32, folder: String) -> Int32 {
        let result: Int32
        switch path {
        case .content(let name):
            result = name.withName { unlinkat(descriptor, $0, 0) }
        case .text(let text):
            // The name is the path past the folder and its slash, read in place.
            let offset = folder.isEmpty ? 0 : folder.utf8.count + 1
            result = text.withCString { unlinkat(descriptor, $0 + offset, 0) }
        }
        return result == 0 ? 0 : errno
    }

    static func isFanOut(_ folder: String) -> Bool {
        let parts = folder.split(separator: "/")
        guard let first = parts.first, CacheLayout.contentFolders.contains(String(first)) else { return false }
        return parts.count >= 2 && parts.last?.count == 2
    }
}
