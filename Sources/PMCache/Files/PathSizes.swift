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

    /// The position of the live entry with `key`. The keys are hashes, spread evenly: the search
    /// starts where `key` would be if they were exactly so, and widens from there, which reads
    /// a few neighbouring entries instead of ~18 far apart in a table of 200 000.
    private func slot(of key: Int) -> Int? {
        let count = entries.count
        guard count > 0 else { return nil }
        let guess = Int(Self.rank(key).multipliedFullWidth(by: UInt64(count)).high)
        var low: Int, high: Int
        var step = 1
        if entries[guess].key < key {
            (low, high) = (guess + 1, guess + 1)
            while high < count, entries[high].key < key {
                low = high + 1
                high = low + step
                step *= 2
            }
            high = min(high, count)
        } else {
            (low, high) = (guess, guess)
            while low > 0, entries[low - 1].key >= key {
                high = low - 1
                low = max(0, high - step)
                step *= 2
            }
        }
        // The first entry not below `key` is in low...high.
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        guard low < count, entries[low].key == key, entries[low].bytes != Self.removed else { return nil }
        return low
    }

    /// `key`'s place among all Int values, from 0 for `Int.min`: the fraction of the table below it.
    private static func rank(_ key: Int) -> UInt64 {
        UInt64(bitPattern: Int64(key)) ^ (1 << 63)
    }
}
