import PMCache

/// A cache opened by a command that only reads it (`verify`, `stats`, `prune --dry-run`): no
/// lock, a read-only index connection, so it never waits for a writer (SQLite WAL), and
/// nothing written in the folder, which may be one the user cannot write.
struct ReadOnlyCache: Sendable {
    let layout: CacheLayout
    let index: PhotoIndex

    /// `note` gets `IndexReadMode.lagNote` when the index could only be read immutable.
    init(root: String, note: @Sendable (String) -> Void) throws(CacheCommandError) {
        layout = CacheLayout(root: root)
        try OpenCache.requireIndex(layout)
        do {
            index = try PhotoIndex(readingOnly: layout.indexPath)
        } catch {
            throw CacheCommandError("cannot open the cache index", error)
        }
        if index.readMode == .immutable { note(IndexReadMode.lagNote(indexPath: layout.indexPath)) }
    }
}
