/// The values the eviction policy decides over besides the images (`EvictionImages`): plain
/// data, so the policy itself is a pure function that tests can drive without a disk.

/// One file of the cache and what deleting it gives back.
public struct CachedFile: Sendable, Equatable {
    public var path: CachePath
    /// Disk use as `du` counts it (allocated blocks, at least the length); 0 when the file is missing.
    public var diskBytes: Int

    public init(path: CachePath, diskBytes: Int) {
        self.path = path
        self.diskBytes = diskBytes
    }
}

/// An item naming an image, and when its feed last listed it (the feed's `last_sync`).
public struct BlobReference: Sendable, Equatable {
    public var sha256: ImageHash
    public var listedAt: Double

    public init(sha256: ImageHash, listedAt: Double) {
        self.sha256 = sha256
        self.listedAt = listedAt
    }
}

/// What a prune is asked to reach.
public struct EvictionGoal: Sendable, Equatable {
    /// Evict least recently used files until the cache uses at most this many bytes.
    public var targetBytes: Int?
    /// Expire every image last used before this instant (seconds since 1970), whatever the size.
    public var expireBefore: Double?
    /// Evict nothing used at or after this instant: a prune in the middle of a sync keeps every
    /// image the sync has stored or its feeds list, whatever the size.
    public var keepUsedSince: Double?

    public init(targetBytes: Int? = nil, expireBefore: Double? = nil, keepUsedSince: Double? = nil) {
        self.targetBytes = targetBytes
        self.expireBefore = expireBefore
        self.keepUsedSince = keepUsedSince
    }

    /// The share of the limit a prune trims down to once the cache is over it: the next syncs
    /// then add their new images without pruning again straight away.
    public static let fill = 0.8

    /// `--max`, the one rule of `prune`, of a sync as it stores and of a sync when it is done:
    /// nothing while the cache fits; once it is over the limit, trim to 80% of it. `wentOver`:
    /// a sync was over the limit on the way (and pruned then), so it ends at 80% too.
    public static func limit(_ limit: Int, usage: Int, wentOver: Bool = false) -> EvictionGoal {
        guard usage > limit || (wentOver && Double(usage) > Double(limit) * fill) else { return EvictionGoal() }
        return EvictionGoal(targetBytes: Int(Double(limit) * fill))
    }

    /// `prune --max --max-age`: the size rule of `limit`, and an expiry whatever the size.
    public static func prune(limit: Int?, maxAge: Double?, usage: Int, now: Double) -> EvictionGoal {
        var goal = limit.map { Self.limit($0, usage: usage) } ?? EvictionGoal()
        goal.expireBefore = maxAge.map { now - $0 }
        return goal
    }

    /// `sync --max` when the sync is done (`limit`).
    public static func afterSync(limit: Int, usage: Int, wentOver: Bool = false) -> EvictionGoal {
        Self.limit(limit, usage: usage, wentOver: wentOver)
    }

    /// The first round of a prune on a disk that had no room (its reserve just released): it
    /// frees at most `step` bytes, by size alone (an expiry goes whole, in the later rounds),
    /// so that the rows it drops and the pages it rewrites fit in what the reserve gave back;
    /// the files it deletes make room for the rest. Nil when the goal asks for nothing.
    public func firstStep(usage: Int, step: Int) -> EvictionGoal? {
        guard targetBytes != nil || expireBefore != nil else { return nil }
        let stepTarget = max(0, usage - step)
        return EvictionGoal(targetBytes: max(targetBytes ?? stepTarget, stepTarget), keepUsedSince: keepUsedSince)
    }

    /// `sync --max` while the sync stores: `limit`, sparing whatever the sync has used since it
    /// started (`keepUsedSince`).
    public static func duringSync(limit: Int, usage: Int, syncStart: Double) -> EvictionGoal {
        var goal = Self.limit(limit, usage: usage)
        if goal.targetBytes != nil { goal.keepUsedSince = syncStart }
        return goal
    }
}

/// The policy's answer: what to delete, in order, and where that leaves the cache.
public struct EvictionPlan: Sendable, Equatable {
    /// Images whose original goes, least recently used first (expired ones included).
    public var originals: [ImageHash] = []
    /// Images whose every thumbnail goes (expired ones, unlisted ones with their original, then
    /// any needed beyond all originals).
    public var thumbnails: [ImageHash] = []
    /// The files of those rows: what to delete once the rows are gone and the pages rewritten.
    public var files: [CachePath] = []
    /// How many images expired by age (original and thumbnails).
    public var expired = 0
    /// How many images no item or feed names went whole to make room (original and thumbnails).
    public var unlisted = 0
    public var bytesFreed = 0
    public var usageAfter = 0
    /// False when even deleting every image would not fit the target (the index, manifests and
    /// gallery alone are larger).
    public var reachesTarget = true

    public var isEmpty: Bool { originals.isEmpty && thumbnails.isEmpty }
}
