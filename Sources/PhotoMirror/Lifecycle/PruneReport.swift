/// What a prune did (or, with `--dry-run`, would do). Encoded as `prune --json`.
public struct PruneReport: Sendable, Codable, Equatable {
    /// The limit asked for (`--max`, `sync --max` or the cache's `max_size`), if any.
    public var limit: Int?
    /// Where eviction stops: the limit for `prune`, 80% of it for a prune after a sync.
    public var target: Int?
    /// Disk use of the whole cache folder, as `du` counts it, before and after; in a storage
    /// other writers share, of what this writer owns.
    public var usageBefore = 0
    public var usageAfter = 0
    /// Images whose original was evicted, whose thumbnails were evicted, that expired by age and
    /// that went whole because no item or feed names them (the last two counted in the first two
    /// as well).
    public var originalsEvicted = 0
    public var thumbnailsEvicted = 0
    public var expired = 0
    public var unlisted = 0
    /// Temp files and orphans (files no index row names) deleted.
    public var garbageRemoved = 0
    /// In a storage other writers share: files no row names that were kept, being younger than
    /// the grace period or with another writer live.
    public var garbageKept = 0
    /// Evicted files left in place because another writer sharing the storage was live (their
    /// rows are dropped: a later prune collects them as garbage).
    public var filesKept = 0
    /// Bytes of the shared storage that are not this writer's (other writers' files, garbage in
    /// its grace period): outside its limit and its usage.
    public var othersBytes = 0
    public var manifestsRewritten = 0
    public var reachedTarget = true
    public var dryRun = false
    /// Files that could not be deleted, with the reason; their rows are already gone, so they
    /// are orphans the next prune or `verify --repair` removes.
    public var failures: [String] = []

    enum CodingKeys: String, CodingKey {
        case limit, target, expired, unlisted, failures
        case usageBefore = "usage_before", usageAfter = "usage_after"
        case originalsEvicted = "originals_evicted", thumbnailsEvicted = "thumbnails_evicted"
        case garbageRemoved = "garbage_removed", manifestsRewritten = "manifests_rewritten"
        case garbageKept = "garbage_kept", filesKept = "files_kept", othersBytes = "others_bytes"
        case reachedTarget = "reached_target", dryRun = "dry_run"
    }

    public var bytesFreed: Int { max(0, usageBefore - usageAfter) }
}
