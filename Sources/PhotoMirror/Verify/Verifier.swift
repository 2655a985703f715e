import PMCache

/// `photomirror verify`: proves the cache and its index agree. Read-only: it takes no lock and
/// opens the index read-only, so it runs beside a sync without waiting for it (SQLite WAL).
/// The index itself is checked first (`IndexHealth`): a damaged or lost one is the one damage
/// reported, as nothing it says can be trusted.
public struct Verifier: Sendable {
    public let cacheRoot: String
    /// SQLite's `integrity_check` (every index against its table too) instead of `quick_check`.
    public var deep = false
    /// Where the cache's files live.
    public var store = StoreChoice.folder
    /// Receives the one line said when the index could only be read as a snapshot.
    public var note: @Sendable (String) -> Void = { _ in }

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public func run() async throws(CacheCommandError) -> VerifyReport {
        let layout = CacheLayout(root: cacheRoot)
        if case .unstarted = IndexPresence(layout) { return VerifyReport() }
        let health = try await IndexHealth.check(layout, deep: deep)
        guard case .healthy(let index) = health else { return VerifyReport(indexDamage: health.damageLine ?? "") }
        if index.readMode == .immutable { note(IndexReadMode.lagNote(indexPath: layout.indexPath)) }
        do {
            let (storage, shutdown) = store.standalone(layout: layout)
            defer { shutdown() }
            return try await CacheInspection(layout: layout, index: index, storage: storage, deep: deep).run()
        } catch let error as IndexError where error.isDamage {
            return VerifyReport(indexDamage: IndexHealth.damagedLine(error.message))
        } catch {
            throw CacheCommandError(description: "cannot read the cache: \(error)")
        }
    }
}
