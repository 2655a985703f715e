import PMCache

/// Index writes of finished media, applied in one transaction per batch. At 1000+ images a
/// second a commit per image (a WAL append, lock round trips, an actor hop) costs more than all
/// the rest of the bookkeeping. Every write is queued only after its files are in place, so a
/// sync stopped at any point leaves at worst files that no row names yet — garbage that
/// `verify` reports, never a row naming a missing file. Each batch's files are flushed before
/// its commit (`CacheStorage.makeDurable`), while the next batch downloads.
///
/// A batch is due at `limit` images with new files or `maxAge` after its first write, whichever
/// comes first. Large batches pay at 10^5 images: rows go in under random keys (content
/// hashes), so a commit of 64 images writes a page of each index per image to the WAL, and the
/// checkpoint copies it again; a commit of 256 shares many of those pages. (1024 shares more,
/// but a sync under `--max`, which prunes between batches, then settles further from the
/// target a prune trims to.) The age bound keeps what a killed or powered-off sync loses to
/// seconds of work where images come in slowly.
///
/// A touch (an image the cache already held) names no new file, so nothing is flushed for it
/// and it does not count toward `limit`: a re-sync of unchanged feeds commits its touches in a
/// few large transactions, each page of the index written once.
struct PendingWrites: Sendable {
    static let limit = 256
    /// How long the first write of a batch waits for its commit at most.
    static let maxAge: Duration = .seconds(2)
    /// Writes of any kind a batch holds at most: what a sync keeps of URLs between being done
    /// and committed.
    static let touchLimit = 4096

    private(set) var urls: [String] = []
    private var writes: [PhotoIndex.MediaWrite] = []
    private var newFiles = 0
    /// When the first write of this batch was queued.
    private var startedAt: ContinuousClock.Instant?
    /// Disk the new files of the queued writes take, in whole blocks (`SyncPruning`'s estimate).
    private(set) var newFileBytes = 0

    /// Whether the batch is to be committed now.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        guard let startedAt else { return false }
        return newFiles >= Self.limit || writes.count >= Self.touchLimit || now - startedAt >= Self.maxAge
    }

    mutating func add(_ write: PhotoIndex.MediaWrite, for url: String, at now: ContinuousClock.Instant) {
        if startedAt == nil { startedAt = now }
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
            (newFiles, newFileBytes, startedAt) = (0, 0, nil)
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
