import Foundation
import PMSupport

/// One thread's share of a `DiskScan`: readdir + fstatat on the folder's descriptor, one
/// syscall per entry and no path lookups, each path built once straight from the entry's name.
struct DiskWalk: Sendable {
    var usage = 0
    var files: [(CachePath, Int)] = []
    var tempFiles: [String] = []
    /// Files under the content folders that are not temp files.
    var contentCount = 0
    /// Folders left for the lanes: everything below the layout's fixed top levels.
    var deferred: [String] = []
    /// Whether everything walked is inside fan-out folders (see `DiskScan.remeasure`).
    var isDeep = false
    /// False for a compact scan: content files that are not temp files go to `hashed`, by the
    /// hash of their path, instead of `files`.
    var keepsContentPaths = true
    var hashed: [PathSizes.Entry] = []
    /// Disk use of the files under `originals/` and under `thumbs/`, temp files included.
    var kinds = ContentKindBytes()

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

    mutating func walk(absolute: String, relative: String, deferring: Bool) {
        guard let folder = opendir(absolute) else { return }
        defer { closedir(folder) }
        let descriptor = dirfd(folder)
        let isContent = CacheLayout.contentFolders.contains { relative == $0 || relative.hasPrefix($0 + "/") }
        let prefix = Array((relative.isEmpty ? "" : relative + "/").utf8)
        let tempPrefix = Array(AtomicFile.tempPrefix.utf8)
        var subfolders: [String] = []
        while let entry = readdir(folder) {
            let found: (path: CachePath, isTemp: Bool, bytes: Int, isFolder: Bool)? = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: UInt8.self, capacity: 256) { name in
                    let cName = UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)
                    let length = strlen(cName)
                    if name[0] == UInt8(ascii: "."), length == 1 || (length == 2 && name[1] == UInt8(ascii: ".")) { return nil }
                    var info = stat()
                    guard fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                    let nameBytes = UnsafeBufferPointer(start: name, count: length)
                    let isTemp = nameBytes.starts(with: tempPrefix)
                    // A content file's path packs without a String; anything else is text.
                    let path = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + length) { buffer in
                        _ = buffer.initialize(fromContentsOf: prefix)
                        _ = buffer[prefix.count...].initialize(fromContentsOf: nameBytes)
                        let bytes = UnsafeBufferPointer(buffer)
                        return isContent && !isTemp ? CachePath(utf8: bytes) : .text(String(decoding: bytes, as: UTF8.self))
                    }
                    return (path, isTemp, DiskScan.diskBytes(info), info.st_mode & S_IFMT == S_IFDIR)
                }
            }
            guard let found else { continue }
            usage += found.bytes
            if found.isFolder {
                subfolders.append(found.path.description)
                continue
            }
            if isContent { kinds.add(found.path, bytes: found.bytes) }
            let isContentFile = isContent && !found.isTemp
            if isContentFile && !keepsContentPaths {
                hashed.append(PathSizes.Entry(key: PathSizes.key(found.path), bytes: found.bytes))
            } else {
                files.append((found.path, found.bytes))
            }
            if found.isTemp {
                tempFiles.append(found.path.description)
            } else if isContentFile {
                contentCount += 1
            }
        }
        for path in subfolders {
            if deferring && !Self.walksFirst(path) {
                deferred.append(path)
            } else {
                let name = String(decoding: path.utf8.dropFirst(prefix.count), as: UTF8.self)
                walk(absolute: absolute + "/" + name, relative: path, deferring: deferring)
            }
        }
    }
}
