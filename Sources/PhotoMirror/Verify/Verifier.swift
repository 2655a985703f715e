import PMCache

/// `photomirror verify`: proves the cache and its index agree. Read-only: it takes no lock and
/// opens the index read-only, so it runs beside a sync without waiting for it (SQLite WAL).
public struct Verifier: Sendable {
    public let cacheRoot: String

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public func run() async throws(SyncError) -> VerifyReport {
        let cache = try ReadOnlyCache(root: cacheRoot)
        do {
            return try await CacheInspection(layout: cache.layout, index: cache.index).run()
        } catch {
            throw SyncError(description: "cannot read the cache: \(error)")
        }
    }
}
