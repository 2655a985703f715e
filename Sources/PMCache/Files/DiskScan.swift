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
    /// Every file that is not a folder, by path relative to the root, with its disk use; in a
    /// compact scan (`listsContentFiles` false), all but the content files, which only
    /// `diskBytes(of:)` knows.
    public private(set) var files: [CachePath: Int] = [:]
    /// The content files (not temp files) of a compact scan, by the hash of their path.
    private var contentSizes = PathSizes()
    /// False for a compact scan (`measure(root:lanes:compact:)`): `files` and `contentFiles`
    /// then lack the content files.
    public private(set) var listsContentFiles = true
    /// Files whose name marks them as a writer's unfinished temp file (`.tmp-…`), anywhere.
    public private(set) var tempFiles: [String] = []
    /// How many files under the content folders (`originals/`, `thumbs/`) are not temp files.
    public private(set) var contentFileCount = 0
    /// Disk use of the files under `originals/` and under `thumbs/` (temp files included), in a
    /// compact scan too: what `stats` shows without listing 200 000 paths.
    public private(set) var contentKinds = ContentKindBytes()
    /// When each listed object was last written (seconds since 1970), where the storage's
    /// listing says (an object store's Last-Modified): how garbage's age is judged.
    public private(set) var modified: [CachePath: Double] = [:]

    private var root = ""
    /// Files the layout's fixed top levels and the non-content folders hold (pages, manifests,
    /// the index): what `remeasure` walks again. Every other file is in a fan-out folder.
    private var shallowFiles: Set<CachePath> = []
    /// Disk use of everything inside the fan-out folders, and their non-temp files.
    private var deepBytes = 0
    private var deepContentCount = 0
    private var deepKinds = ContentKindBytes()

    /// Files under the content folders that are not temp files: what an index row must name.
    public var contentFiles: [CachePath] {
        files.keys.filter { path in
            switch path {
            case .content: true
            case .text(let text): Self.isContent(text) && !Self.isTemp(text)
            }
        }
    }

    /// The disk use of the file at `path`; nil when the scan found no file there.
    public func diskBytes(_ path: String) -> Int? {
        diskBytes(of: CachePath(path))
    }

    /// The disk use of the file at `path`, in a compact scan too; nil when the scan found none.
    public func diskBytes(of path: CachePath) -> Int? {
        files[path] ?? (listsContentFiles ? nil : contentSizes.bytes(of: path))
    }

    /// What a storage that lists objects (an object store, memory) holds: every object at its
    /// size, and no folders.
    public init(objects: some Sequence<(path: String, bytes: Int)>) {
        for (path, bytes) in objects { add(path, bytes: bytes) }
        tempFiles.sort()
    }

    /// A listing that says when each object was last written (`modified`, by path).
    public init(objects: some Sequence<(path: String, bytes: Int)>, modified: [String: Double]) {
        self.init(objects: objects)
        for (path, time) in modified { self.modified[CachePath(path)] = time }
    }

    /// This listing without `removed`: what a listed storage holds after a removal.
    public func removing(_ removed: some Sequence<CachePath>) -> DiskScan {
        var gone = Set<CachePath>()
        for path in removed { gone.insert(path) }
        return keeping { !gone.contains($0) }
    }

    /// This listing with only the files `isKept` accepts (the share one writer owns of a bucket).
    public func keeping(_ isKept: (CachePath) -> Bool) -> DiskScan {
        var kept = DiskScan(objects: files.compactMap { isKept($0.key) ? ($0.key.description, $0.value) : nil })
        kept.modified = modified.filter { kept.files[$0.key] != nil }
        return kept
    }

    private mutating func add(_ path: String, bytes: Int) {
        let key = CachePath(path)
        files[key] = bytes
        usage += bytes
        contentKinds.add(key, bytes: bytes)
        if Self.isTemp(path) {
            tempFiles.append(path)
        } else if Self.isContent(path) {
            contentFileCount += 1
        }
    }

    init() {}

    /// Walks the fan-out folders on `lanes` threads: a scan of 200 000 files is mostly
    /// syscalls, and the calling thread only waits.
    ///
    /// `compact`: the content files are kept by the hash of their path, not their path (see
    /// `PathSizes`): what a prune needs of 200 000 files, in an eighth of the memory.
    public static func measure(root: String, lanes: Int = 4, compact: Bool = false) throws(FileError) -> DiskScan {
        var top = try topWalk(root: root)
        let deferred = top.deferred
        let parts = Mutex<[DiskWalk]>([])
        let done = DispatchGroup()
        let laneCount = max(1, min(lanes, deferred.count))
        for lane in 0..<laneCount {
            done.enter()
            Thread {
                var shallow = DiskWalk(), deep = DiskWalk()
                deep.keepsContentPaths = !compact
                for index in stride(from: lane, to: deferred.count, by: laneCount) {
                    let path = deferred[index]
                    if isContent(path) {
                        deep.walk(absolute: root + "/" + path, relative: path, deferring: false)
                    } else {
                        shallow.walk(absolute: root + "/" + path, relative: path, deferring: false)
                    }
                }
                deep.isDeep = true
                let finished = [shallow, deep]
                parts.withLock { $0 += finished }
                done.leave()
            }.start()
        }
        done.wait()
        top.deferred = []
        var scan = DiskScan()
        scan.root = root
        var walks = [top] + parts.withLock { taken in
            defer { taken = [] }
            return taken
        }
        scan.files.reserveCapacity(walks.reduce(0) { $0 + $1.files.count })
        scan.listsContentFiles = !compact
        var hashed: [PathSizes.Entry] = []
        if compact { hashed.reserveCapacity(walks.reduce(0) { $0 + $1.hashed.count }) }
        for index in walks.indices {
            hashed += walks[index].hashed
            walks[index].hashed = []
            scan.absorb(walks[index])
        }
        scan.contentSizes = PathSizes(consume hashed)
        scan.tempFiles.sort()
        return scan
    }

    /// Measures again after `removed` files were deleted, without walking the fan-out folders:
    /// their files are the last scan's minus `removed`, while the folders themselves and
    /// everything outside them are measured afresh. True as long as nothing else adds or deletes
    /// files in the fan-out folders meanwhile, which the writers' lock guarantees.
    public mutating func remeasure(afterRemoving removed: some Sequence<CachePath>) throws(FileError) {
        for path in removed where !shallowFiles.contains(path) {
            guard let bytes = files.removeValue(forKey: path) ?? (listsContentFiles ? nil : contentSizes.remove(path)) else { continue }
            deepBytes -= bytes
            deepKinds.add(path, bytes: -bytes)
            if case .text(let text) = path, Self.isTemp(text) { continue }
            deepContentCount -= 1
        }
        for path in shallowFiles { files.removeValue(forKey: path) }
        var top = try Self.topWalk(root: root)
        for path in top.deferred where !Self.isContent(path) {
            top.walk(absolute: root + "/" + path, relative: path, deferring: false)
        }
        top.deferred = []
        tempFiles = tempFiles.filter { !shallowFiles.contains(.text($0)) && files[.text($0)] != nil }
        (usage, contentFileCount, contentKinds, shallowFiles) = (deepBytes, deepContentCount, deepKinds, [])
        absorb(top)
        tempFiles.sort()
    }

    private mutating func absorb(_ walk: DiskWalk) {
        usage += walk.usage
        contentFileCount += walk.contentCount
        contentKinds += walk.kinds
        tempFiles += walk.tempFiles
        if walk.isDeep {
            deepBytes += walk.usage
            deepContentCount += walk.contentCount
            deepKinds += walk.kinds
        }
        for (path, bytes) in walk.files {
            files[path] = bytes
            if !walk.isDeep { shallowFiles.insert(path) }
        }
    }

    /// The root and the layout's fixed top levels; everything below them is left in `deferred`.
    private static func topWalk(root: String) throws(FileError) -> DiskWalk {
        var info = stat()
        guard lstat(root, &info) == 0 else { throw FileError(path: root, operation: "measure") }
        var top = DiskWalk()
        top.usage = diskBytes(info)
        top.walk(absolute: root, relative: "", deferring: true)
        return top
    }

    static func diskBytes(_ info: stat) -> Int {
        max(Int(info.st_size), Int(info.st_blocks) * 512)
    }

    static func isContent(_ path: String) -> Bool {
        CacheLayout.contentFolders.contains { path.hasPrefix($0) && path.utf8.dropFirst($0.utf8.count).first == UInt8(ascii: "/") }
    }

    /// Whether the path's last component starts with the temp prefix.
    public static func isTemp(_ path: String) -> Bool {
        let utf8 = path.utf8
        let name = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8[utf8.index(after: $0)...] } ?? utf8[...]
        return name.starts(with: AtomicFile.tempPrefix.utf8)
    }
}
