import PMCache

/// Index writes of finished media, applied in one transaction per `limit` items. At 1000+
/// images a second a commit per image (a WAL append, lock round trips, an actor hop) costs
/// more than all the rest of the bookkeeping. Every write is queued only after its files are
/// in place, so a sync stopped at any point leaves at worst files that no row names yet —
/// garbage that `verify` reports, never a row naming a missing file. Each batch's files are
/// flushed before its commit (`CacheStorage.makeDurable`), while the next batch downloads; the
/// last one is flushed with nothing left to overlap, so batches are kept small.
///
/// A touch (an image the cache already held) names no new file, so nothing is flushed for it
/// and it does not count toward `limit`: a re-sync of unchanged feeds commits its touches in a
/// few large transactions, each page of the index written once, rather than one per 64 images.
struct PendingWrites: Sendable {
    static let limit = 64
    /// Writes of any kind a batch holds at most: what a sync keeps of URLs between being done
    /// and committed.
    static let touchLimit = 4096

    private(set) var urls: [String] = []
    private var writes: [PhotoIndex.MediaWrite] = []
    private var newFiles = 0
    /// Disk the new files of the queued writes take, in whole blocks (`SyncPruning`'s estimate).
    private(set) var newFileBytes = 0

    var isFull: Bool { newFiles >= Self.limit || writes.count >= Self.touchLimit }

    mutating func add(_ write: PhotoIndex.MediaWrite, for url: String) {
        urls.append(url)
        writes.append(write)
        if write.namesNewFiles { newFiles += 1 }
        if case .record(_, let original, let thumbnails, _) = write {
            newFileBytes += PhotoIndex.blockRounded(original?.bytes ?? 0)
                + thumbnails.reduce(0) { $0 + PhotoIndex.blockRounded($1.bytes) }
        }
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
            (newFiles, newFileBytes) = (0, 0)
        }
        do {
            if newFiles > 0 { try await storage.makeDurable() }
            try await index.apply(writes)
            return nil
        } catch {
            return (urls, error)
        }
    }
}
