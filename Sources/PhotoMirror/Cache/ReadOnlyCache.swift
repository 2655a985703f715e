import PMCache

/// A cache opened by a command that only reads it (`verify`, `stats`, `prune --dry-run`): no
/// lock, a read-only index connection, so it never waits for a writer (SQLite WAL).
struct ReadOnlyCache: Sendable {
    let layout: CacheLayout
    let index: PhotoIndex

    init(root: String) throws(CacheCommandError) {
        layout = CacheLayout(root: root)
        try OpenCache.requireIndex(layout)
        do {
            index = try PhotoIndex(readingOnly: layout.indexPath)
        } catch {
            throw CacheCommandError("cannot open the cache index", error)
        }
    }
}
