import PMCache

/// Index writes of finished media, applied in one transaction per `limit` items. At 1000+
/// images a second a commit per image (a WAL append, lock round trips, an actor hop) costs
/// more than all the rest of the bookkeeping. Every write is queued only after its files are
/// in place, so a sync stopped at any point leaves at worst files that no row names yet —
/// garbage that `verify` reports, never a row naming a missing file. Each batch's files are
/// flushed before its commit (`CacheStorage.makeDurable`), while the next batch downloads; the
/// last one is flushed with nothing left to overlap, so batches are kept small.
struct PendingWrites: Sendable {
    static let limit = 64

    private(set) var urls: [String] = []
    private var writes: [PhotoIndex.MediaWrite] = []

    var isFull: Bool { writes.count >= Self.limit }

    mutating func add(_ write: PhotoIndex.MediaWrite, for url: String) {
        urls.append(url)
        writes.append(write)
    }

    /// The queued writes, as a batch of their own to flush; this queue starts empty again.
    mutating func take() -> PendingWrites {
        defer { self = PendingWrites() }
        return self
    }

    /// Applies the queued writes and empties the queue, after the storage has the batch's new
    /// files on stable storage. On failure nothing of the batch was written (one transaction);
    /// the error is returned with the URLs it concerns.
    mutating func flush(to index: PhotoIndex, storage: any CacheStorage) async -> (urls: [String], error: any Error)? {
        defer {
            urls.removeAll(keepingCapacity: true)
            writes.removeAll(keepingCapacity: true)
        }
        do {
            if writes.contains(where: \.namesNewFiles) { try await storage.makeDurable() }
            try await index.apply(writes)
            return nil
        } catch {
            return (urls, error)
        }
    }
}
