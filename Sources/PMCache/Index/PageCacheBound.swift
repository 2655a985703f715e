/// How much of the index SQLite may keep in memory: a share of the index file, between a floor
/// and a ceiling. A sync inserts rows under random keys (content hashes, URLs) into B-trees as
/// large as the index, so a fixed small cache misses on nearly every insert once the index
/// outgrows it, and each miss is a `pread` of a page the OS has to copy again. A share of the
/// file keeps those misses rare as the index grows, the floor keeps a small cache's memory as
/// it was, and the ceiling keeps a sync of 10^5 images inside its memory budget.
public struct PageCacheBound: Sendable, Equatable {
    public let floorKiB: Int
    public let ceilingKiB: Int
    /// The cache is the index file's size divided by this.
    public let shareDivisor: Int

    public init(floorKiB: Int, ceilingKiB: Int, shareDivisor: Int) {
        precondition(floorKiB > 0 && ceilingKiB >= floorKiB && shareDivisor > 0)
        self.floorKiB = floorKiB
        self.ceilingKiB = ceilingKiB
        self.shareDivisor = shareDivisor
    }

    /// A cache that never follows the index's size.
    public static func fixed(kibibytes: Int) -> PageCacheBound {
        PageCacheBound(floorKiB: kibibytes, ceilingKiB: kibibytes, shareDivisor: 1)
    }

    public func kibibytes(indexBytes: Int) -> Int {
        min(ceilingKiB, max(floorKiB, indexBytes / 1024 / shareDivisor))
    }
}
