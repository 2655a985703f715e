import PMCache

/// Read-only connections to a cache's index, one for each feed whose documents are being
/// written at once (`Publisher.reading(from:)`): lent to a feed when it starts and taken back
/// when it ends. At the end of a sync, on the writer's one connection, two feeds' page-by-page
/// reads waited for each other and for the other feed's settling. (A prune's republishing,
/// which reads each feed once, measured no faster with them.)
struct ReaderLanes {
    /// Each connection's page cache: its reads are lookups all over the index, which a cache of
    /// any size a sync can afford misses anyway (the file's pages stay in the OS's cache). With
    /// SQLite's default of 2 MB each, a sync of 100 000 images peaked at 66 MB instead of 55.
    static let pageCacheKiB = 256

    private var idle: [PhotoIndex?]
    private var lent: [Int: PhotoIndex?] = [:]

    /// `count` connections to the index at `indexPath`. One that cannot be opened (an index in
    /// memory) is nil: its feeds read through the writer's connection.
    init(count: Int, indexPath: String) async {
        idle = (0..<count).map { _ in try? PhotoIndex(readingBesideWriter: indexPath) }
        for reader in idle { await reader?.boundPageCache(kibibytes: Self.pageCacheKiB) }
    }

    /// A connection for the feed numbered `feed`, which must read only what is committed.
    mutating func lend(to feed: Int) -> PhotoIndex? {
        let reader = idle.popLast() ?? nil
        lent[feed] = reader
        return reader
    }

    /// Takes back the connection of the feed numbered `feed`, done: its statements are reset, so
    /// the next feed's reads see that feed's rows, committed after these reads.
    mutating func takeBack(from feed: Int) async {
        let reader = lent.removeValue(forKey: feed) ?? nil
        await reader?.endReads()
        idle.append(reader)
    }
}
