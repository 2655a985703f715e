import PMCache
import PMSupport

extension DiskScan {
    /// Measures the cache off the cooperative pool: a walk of 200 000 files is blocking work.
    static func measure(_ layout: CacheLayout) async throws -> DiskScan {
        let pool = BlockingPool(threads: 1, name: "photomirror.scan")
        defer { pool.shutdown() }
        return try await pool.run { try DiskScan.measure(root: layout.root) }
    }
}
