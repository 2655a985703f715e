import Foundation
import PMSupport
import Synchronization

/// What the cache folder holds on disk, measured the way `du` counts: every file and folder
/// (the root included), each at the larger of its allocated blocks and its length. The larger
/// of the two makes the total an upper bound for both `du -s` (blocks) and `du -sb` (lengths),
/// so a cache pruned to fit by this measure fits by either. Blocking: run it on a `BlockingPool`.
public struct DiskScan: Sendable {
    /// Bytes of disk the whole cache folder uses.
    public private(set) var usage = 0
    /// Every file that is not a folder, by path relative to the root, with its disk use.
    public private(set) var files: [String: Int] = [:]
    /// Files whose name marks them as a writer's unfinished temp file (`.tmp-…`), anywhere.
    public private(set) var tempFiles: [String] = []
    /// Files under the content folders (`originals/`, `thumbs/`) that are not temp files.
    public private(set) var contentFiles: [String] = []

    /// Walks the fan-out folders on `lanes` threads: a scan of 200 000 files is mostly
    /// syscalls, and the calling thread only waits.
    public static func measure(root: String, lanes: Int = 4) throws(FileError) -> DiskScan {
        var info = stat()
        guard lstat(root, &info) == 0 else { throw FileError(path: root, operation: "measure") }
        var top = Walk()
        top.usage = diskBytes(info)
        top.walk(absolute: root, relative: "", deferring: true)
        let deferred = top.deferred
        let parts = Mutex<[Walk]>([top])
        let done = DispatchGroup()
        let laneCount = max(1, min(lanes, deferred.count))
        for lane in 0..<laneCount {
            done.enter()
            Thread {
                var walk = Walk()
                for index in stride(from: lane, to: deferred.count, by: laneCount) {
                    walk.walk(absolute: root + "/" + deferred[index], relative: deferred[index], deferring: false)
                }
                let finished = walk
                parts.withLock { $0.append(finished) }
                done.leave()
            }.start()
        }
        done.wait()
        var scan = DiskScan()
        let walks = parts.withLock { $0 }
        scan.files.reserveCapacity(walks.reduce(0) { $0 + $1.files.count })
        for walk in walks {
            scan.usage += walk.usage
            for (path, bytes) in walk.files { scan.files[path] = bytes }
            scan.tempFiles += walk.tempFiles
            scan.contentFiles += walk.contentFiles
        }
        scan.tempFiles.sort()
        return scan
    }

    static func diskBytes(_ info: stat) -> Int {
        max(Int(info.st_size), Int(info.st_blocks) * 512)
    }
}

/// One thread's share of a scan.
private struct Walk: Sendable {
    var usage = 0
    var files: [(String, Int)] = []
    var tempFiles: [String] = []
    var contentFiles: [String] = []
    /// Folders left for the lanes: everything below the layout's fixed top levels.
    var deferred: [String] = []

    /// The folders walked before fanning out: the root, `originals`, `thumbs`, `thumbs/<size>`, `feeds`.
    static func walksFirst(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/")
        switch parts.count {
        case 0: return true
        case 1: return CacheLayout.contentFolders.contains(relative) || relative == CacheLayout.feedsFolder
        case 2: return parts[0] == Substring(CacheLayout.thumbnailsFolder)
        default: return false
        }
    }

    // readdir + fstatat on the folder's descriptor: one syscall per entry and no path lookups.
    mutating func walk(absolute: String, relative: String, deferring: Bool) {
        guard let folder = opendir(absolute) else { return }
        defer { closedir(folder) }
        let descriptor = dirfd(folder)
        let isContent = CacheLayout.contentFolders.contains { relative == $0 || relative.hasPrefix($0 + "/") }
        var subfolders: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            let bytes = DiskScan.diskBytes(info)
            usage += bytes
            if info.st_mode & S_IFMT == S_IFDIR {
                subfolders.append(name)
                continue
            }
            files.append((path, bytes))
            if name.hasPrefix(AtomicFile.tempPrefix) {
                tempFiles.append(path)
            } else if isContent {
                contentFiles.append(path)
            }
        }
        for name in subfolders {
            let path = relative.isEmpty ? name : relative + "/" + name
            if deferring && !Self.walksFirst(path) {
                deferred.append(path)
            } else {
                walk(absolute: absolute + "/" + name, relative: path, deferring: deferring)
            }
        }
    }
}
