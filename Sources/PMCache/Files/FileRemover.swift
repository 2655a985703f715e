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

    /// One folder and the files to unlink in it.
    struct FolderJob: Sendable {
        var folder: String
        var files: [CachePath]
    }

    /// Removes `paths` (relative to the cache root); a file already gone is fine.
    func remove(_ paths: [CachePath]) async -> Outcome {
        let jobs = Self.byFolder(paths)
        guard !jobs.isEmpty else { return Outcome() }
        let lanes = min(Self.threads, jobs.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.remove")
        defer { pool.shutdown() }
        return await withTaskGroup(of: Outcome.self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: jobs.count, by: lanes).map { jobs[$0] }
                group.addTask { [layout] in
                    (try? await pool.run { Self.remove(share, layout: layout) }) ?? Outcome()
                }
            }
            var outcome = Outcome()
            for await part in group {
                outcome.removed += part.removed
                outcome.failures += part.failures
            }
            return outcome
        }
    }

    /// Groups paths by folder; a content file's folder is told by its packed name, not spelled.
    static func byFolder(_ paths: [CachePath]) -> [FolderJob] {
        var jobs: [FolderJob] = []
        var contentJobs: [UInt64: Int] = [:], textJobs: [Substring: Int] = [:]
        for path in paths {
            switch path {
            case .content(let name):
                if let job = contentJobs[name.folderID] {
                    jobs[job].files.append(path)
                } else {
                    contentJobs[name.folderID] = jobs.count
                    jobs.append(FolderJob(folder: name.folder, files: [path]))
                }
            case .text(let text):
                let folder = text[..<(text.utf8.lastIndex(of: UInt8(ascii: "/")) ?? text.startIndex)]
                if let job = textJobs[folder] {
                    jobs[job].files.append(path)
                } else {
                    textJobs[folder] = jobs.count
                    jobs.append(FolderJob(folder: String(folder), files: [path]))
                }
            }
        }
        return jobs
    }

    private static func remove(_ jobs: [FolderJob], layout: CacheLayout) -> Outcome {
        var outcome = Outcome()
        for job in jobs {
            let descriptor = open(layout.absolute(job.folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            let openError = descriptor < 0 ? errno : 0
            for path in job.files {
                let error = descriptor < 0 ? openError : unlink(path, in: descriptor, folder: job.folder)
                if error == 0 || error == ENOENT {
                    outcome.removed.append(path)
                } else {
                    outcome.failures.append("\(path): \(String(cString: strerror(error)))")
                }
            }
            if descriptor >= 0 { close(descriptor) }
            // Only the fan-out level: `originals/ab`, `thumbs/40x40/ab`. rmdir refuses a folder
            // that still has files, which is exactly the check wanted.
            if isFanOut(job.folder) { rmdir(layout.absolute(job.folder)) }
        }
        return outcome
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
