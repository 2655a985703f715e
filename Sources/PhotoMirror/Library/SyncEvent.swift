/// What `MirrorCache.sync(_:)` reports as it goes.
public enum SyncEvent: Sendable {
    /// Counts of the images so far, sent as each image settles.
    case progress(SyncProgress)
    /// The cache went over its size limit and was pruned after the sync.
    case pruned(PruneReport)
    /// The sync ended: per feed what was read, downloaded, reused and failed. Always the last event.
    case finished(SyncReport)
}
