/// The disk use of many files by the hash of their path: what a compact `DiskScan` keeps of the
/// content files instead of a dictionary of their paths, at 16 bytes a file instead of about 125.
///
/// Keys are `CachePath.hashValue`, seeded per process, so only paths hashed in this process
/// are compared. Two of 200 000 paths share a key with a chance of about 10⁻⁹; the worst that
/// does is size one file as the other, which the next measure corrects.
struct PathSizes: Sendable {
    struct Entry: Sendable {
        var key: Int
        /// Disk use; `removed` once the file was deleted.
        var bytes: Int
    }

    private static let removed = -1
    /// Sorted by key: a lookup is a binary search, and the table is built once.
    private var entries: [Entry]
    private(set) var count: Int

    /// Sorts `entries` in place: the walk's list is not needed beside the table.
    init(_ entries: consuming [Entry]) {
        var sorted = entries
        sorted.sort { $0.key < $1.key }
        count = sorted.count
        self.entries = sorted
    }

    init() {
        self.init([])
    }

    static func key(_ path: CachePath) -> Int {
        path.hashValue
    }

    /// The disk use of the file at `path`; nil when the scan found none (or it was removed since).
    func bytes(of path: CachePath) -> Int? {
        slot(of: Self.key(path)).map { entries[$0].bytes }
    }

    /// Forgets the file at `path`; its disk use, nil when the table had no such file.
    mutating func remove(_ path: CachePath) -> Int? {
        guard let slot = slot(of: Self.key(path)) else { return nil }
        let bytes = entries[slot].bytes
        entries[slot].bytes = Self.removed
        count -= 1
        return bytes
    }

    /// The position of the live entry with `key`, by binary search.
    private func slot(of key: Int) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].key == key, entries[low].bytes != Self.removed else { return nil }
        return low
    }
}
