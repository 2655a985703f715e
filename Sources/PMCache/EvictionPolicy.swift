/// Decides what a prune deletes. Pure: index rows and measured sizes in, a plan out.
///
/// 1. Images last used before `--max-age` expire: original and thumbnails.
/// 2. Originals go, least recently used first, until the cache fits.
/// 3. Only if every original is gone and it still doesn't fit, thumbnails go, LRU again.
///    A 40×40 thumbnail costs about 1% of its original and is what the gallery shows.
///
/// An image is as recent as the most recent item that names it, in any feed: a shared original
/// goes only when none of the items naming it is recent.
public enum EvictionPolicy {
    /// Joins index rows into images. `diskBytes` maps paths to measured disk use; a path it
    /// lacks has no file, and deleting its row frees nothing.
    public static func blobs(originals: [OriginalRecord], thumbnails: [ThumbnailRecord], references: [BlobReference],
                             diskBytes: [String: Int]) -> [CachedBlob] {
        var blobs: [String: CachedBlob] = [:]
        blobs.reserveCapacity(originals.count)
        // Mutated in place through the defaulted subscript: no copy of a blob per row.
        for row in originals {
            let file = CachedFile(path: row.path, diskBytes: diskBytes[row.path] ?? 0)
            blobs[row.sha256, default: CachedBlob(sha256: row.sha256, original: nil, thumbnails: [], lastUsed: row.lastAccess)]
                .absorb(original: file, usedAt: row.lastAccess)
        }
        for row in thumbnails {
            let file = CachedFile(path: row.path, diskBytes: diskBytes[row.path] ?? 0)
            blobs[row.originalSHA256, default: CachedBlob(sha256: row.originalSHA256, original: nil, thumbnails: [],
                                                          lastUsed: row.lastAccess)]
                .absorb(thumbnail: file, usedAt: row.lastAccess)
        }
        // References only make a stored image more recent; they never create one.
        for reference in references {
            if let used = blobs[reference.sha256]?.lastUsed, used < reference.listedAt {
                blobs[reference.sha256]?.lastUsed = reference.listedAt
            }
        }
        return Array(blobs.values)
    }

    public static func plan(blobs: [CachedBlob], usage: Int, goal: EvictionGoal) -> EvictionPlan {
        var plan = EvictionPlan()
        let usageBefore = usage
        var usage = usage
        // Oldest first; the hash breaks ties so the same cache always gives the same plan.
        let byAge = blobs.sorted { ($0.lastUsed, $0.sha256) < ($1.lastUsed, $1.sha256) }
        var expired = Set<String>()

        if let cutoff = goal.expireBefore {
            for blob in byAge {
                guard blob.lastUsed < cutoff else { break }
                expired.insert(blob.sha256)
                plan.expired += 1
                if let original = blob.original {
                    plan.originals.append(blob.sha256)
                    usage -= original.diskBytes
                }
                if !blob.thumbnails.isEmpty {
                    plan.thumbnails.append(blob.sha256)
                    usage -= blob.thumbnailBytes
                }
            }
        }
        if let target = goal.targetBytes {
            for blob in byAge where usage > target && !expired.contains(blob.sha256) {
                guard let original = blob.original else { continue }
                plan.originals.append(blob.sha256)
                usage -= original.diskBytes
            }
            for blob in byAge where usage > target && !expired.contains(blob.sha256) {
                guard !blob.thumbnails.isEmpty else { continue }
                plan.thumbnails.append(blob.sha256)
                usage -= blob.thumbnailBytes
            }
            plan.reachesTarget = usage <= target
        }
        plan.bytesFreed = usageBefore - usage
        plan.usageAfter = usage
        return plan
    }
}

private extension CachedBlob {
    mutating func absorb(original file: CachedFile? = nil, thumbnail: CachedFile? = nil, usedAt time: Double) {
        if let file { original = file }
        if let thumbnail { thumbnails.append(thumbnail) }
        lastUsed = max(lastUsed, time)
    }
}
