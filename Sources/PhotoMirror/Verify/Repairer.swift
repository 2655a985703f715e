import PMCache

/// `photomirror verify --repair`: under the writers' lock, makes the cache one `verify` accepts.
/// Rows of missing or wrong files are dropped (their items then read as `evicted-original` or
/// `evicted`, and the next sync that lists them fetches them again), manifests, JSON Feeds and
/// the gallery are rewritten from the index, and only then are wrong files, orphans and temp
/// files deleted — the same crash-safe order as prune.
public struct Repairer: Sendable {
    public let cacheRoot: String
    public var lockWait: Double = 5

    public init(cacheRoot: String) {
        self.cacheRoot = cacheRoot
    }

    public struct Result: Sendable {
        /// What verify found before repairing.
        public var found: VerifyReport
        /// What verify finds after.
        public var after: VerifyReport
        public var rowsDropped = 0
        public var filesDeleted = 0
        public var manifestsRewritten = 0
        /// Files that could not be deleted, with the reason.
        public var failures: [String] = []
    }

    public func run() async throws(SyncError) -> Result {
        let cache = try OpenCache.existing(root: cacheRoot, lockWait: lockWait)
        do {
            let inspection = CacheInspection(layout: cache.layout, index: cache.index)
            let found = try await inspection.run()
            var result = Result(found: found, after: found)
            let findings = found.findings
            guard !findings.isEmpty else { return result }
            _ = try await cache.index.dropRows(originals: findings.originals.map { ImageHash($0) },
                                               thumbnails: findings.thumbnails.map { (ImageHash($0.sha256), $0.size) })
            result.rowsDropped = findings.originals.count + findings.thumbnails.count
            if result.rowsDropped > 0 || findings.pagesDamaged || findings.documentsStale {
                try await Republisher(cache: cache).republishAll()
                result.manifestsRewritten = try await cache.index.feeds().count
            }
            let doomed = findings.damagedFiles + findings.garbage
            result.failures = await cache.storage.remove(doomed.map { CachePath($0) }).failures
            result.filesDeleted = doomed.count - result.failures.count
            await cache.index.checkpoint()
            result.after = try await inspection.run()
            return result
        } catch {
            throw SyncError(description: "repair stopped: \(error); the cache is consistent, run verify --repair again")
        }
    }
}
