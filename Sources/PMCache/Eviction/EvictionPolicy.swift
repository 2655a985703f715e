import Dispatch
import Synchronization

/// Decides what a prune deletes. Pure: index rows and measured sizes in, a plan out.
///
/// 1. Images last used before `--max-age` expire: original and thumbnails.
/// 2. Originals go, least recently used first, until the cache fits. An image no item or feed
///    names goes whole: no page shows its thumbnail, and a sync that lists it again downloads
///    it anyway (reuse needs the original).
/// 3. Only if every original is gone and it still doesn't fit, thumbnails go, LRU again.
///    A 40×40 thumbnail costs about 1% of its original and is what the gallery shows.
///
/// An image is as recent as the most recent item that names it, in any feed: a shared original
/// goes only when none of the items naming it is recent.
public enum EvictionPolicy {
    /// Joins index rows into images. `diskBytes` maps paths to measured disk use; a path it
    /// lacks has no file, and deleting its row frees nothing.
    ///
    /// The join is hash-table probes that mostly wait on memory (100 000 images, 300 000 rows),
    /// so the images are split in two by hash and joined on two threads; the plan sorts them
    /// anyway, so their order here does not matter.
    public static func blobs(_ rows: EvictionRows, diskBytes: [CachePath: Int]) -> [CachedBlob] {
        let parts = Mutex<[[CachedBlob]]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let joined = blobs(rows, diskBytes: diskBytes) { half(of: $0) == part }
            parts.withLock { $0.append(joined) }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }

    /// Which of the two halves an image falls in.
    private static func half(of sha256: ImageHash) -> Int {
        if case .packed(let hash) = sha256 { return Int(hash.firstByte & 1) }
        return sha256.hashValue & 1
    }

    /// The images `includes` accepts, joined.
    private static func blobs(_ rows: EvictionRows, diskBytes: [CachePath: Int], including includes: (ImageHash) -> Bool)
        -> [CachedBlob]
    {
        var blobs: [CachedBlob] = []
        blobs.reserveCapacity(rows.originals.count / 2)
        var slots: [ImageHash: Int] = [:]
        slots.reserveCapacity(rows.originals.count / 2)
        // One hash probe per row: the slot is read and, for a new image, claimed in place.
        func slot(_ sha256: ImageHash, usedAt time: Double) -> Int {
            let next = blobs.count
            let index = claim(&slots[sha256, default: -1], next: next)
            if index == next { blobs.append(CachedBlob(sha256: sha256, original: nil, thumbnails: [], lastUsed: time)) }
            return index
        }
        func claim(_ slot: inout Int, next: Int) -> Int {
            if slot < 0 { slot = next }
            return slot
        }
        for row in rows.originals where includes(row.sha256) {
            let index = slot(row.sha256, usedAt: row.lastAccess)
            blobs[index].original = CachedFile(path: row.path, diskBytes: diskBytes[row.path] ?? 0)
            blobs[index].lastUsed = max(blobs[index].lastUsed, row.lastAccess)
        }
        for row in rows.thumbnails where includes(row.sha256) {
            let index = slot(row.sha256, usedAt: row.lastAccess)
            blobs[index].thumbnails.append(CachedFile(path: row.path, diskBytes: diskBytes[row.path] ?? 0))
            blobs[index].lastUsed = max(blobs[index].lastUsed, row.lastAccess)
        }
        // References only make a stored image more recent; they never create one.
        for reference in rows.references where includes(reference.sha256) {
            if let index = slots[reference.sha256] {
                blobs[index].isListed = true
                if blobs[index].lastUsed < reference.listedAt { blobs[index].lastUsed = reference.listedAt }
            }
        }
        return blobs
    }

    /// What the documents and the index lose with a listed image's original besides its file:
    /// its link and placeholder on the feed's pages and in its manifest and JSON Feed, and its
    /// rows. Measured at 1.2 KB per original on `bench_prune`'s 100 000 images and 0.8 KB on
    /// bench target 14's 2000 photos; a prune that did not count it landed below its target by
    /// that much per image (71 % of it there). A plan that counts too much stops above the
    /// target, and the next round's measure takes the rest.
    public static let listedOriginalDocumentBytes = 1024

    /// `documentBytesPerOriginal`: what the documents and rows shrink by with each listed
    /// original evicted, besides its file (`listedOriginalDocumentBytes` for a prune).
    public static func plan(blobs: [CachedBlob], usage: Int, goal: EvictionGoal,
                            documentBytesPerOriginal: Int = 0) -> EvictionPlan {
        var plan = EvictionPlan()
        let usageBefore = usage
        var usage = usage
        // Oldest first; the hash breaks ties so the same cache always gives the same plan. The
        // order is sorted as indices: cheaper to move than whole images.
        let byAge = blobs.indices.sorted {
            blobs[$0].lastUsed != blobs[$1].lastUsed ? blobs[$0].lastUsed < blobs[$1].lastUsed : blobs[$0].sha256 < blobs[$1].sha256
        }
        var expired = 0

        if let cutoff = goal.expireBefore {
            for index in byAge {
                let blob = blobs[index]
                guard blob.lastUsed < cutoff else { break }
                expired += 1
                if let original = blob.original {
                    plan.originals.append(blob.sha256)
                    plan.files.append(original.path)
                    usage -= original.diskBytes
                }
                if !blob.thumbnails.isEmpty {
                    plan.thumbnails.append(blob.sha256)
                    plan.files += blob.thumbnails.map(\.path)
                    usage -= blob.thumbnailBytes
                }
            }
        }
        plan.expired = expired
        if let target = goal.targetBytes {
            // Expired images are the first `expired` of the order: the rest start after them, and
            // end before the first one used since `keepUsedSince`.
            let keep = goal.keepUsedSince ?? .infinity
            let remaining = byAge.dropFirst(expired).prefix { blobs[$0].lastUsed < keep }
            for index in remaining {
                guard usage > target else { break }
                let blob = blobs[index]
                if let original = blob.original {
                    plan.originals.append(blob.sha256)
                    plan.files.append(original.path)
                    usage -= original.diskBytes + (blob.isListed ? documentBytesPerOriginal : 0)
                }
                if !blob.isListed, !blob.thumbnails.isEmpty {
                    plan.unlisted += 1
                    plan.thumbnails.append(blob.sha256)
                    plan.files += blob.thumbnails.map(\.path)
                    usage -= blob.thumbnailBytes
                }
            }
            for index in remaining {
                guard usage > target else { break }
                guard blobs[index].isListed, !blobs[index].thumbnails.isEmpty else { continue }
                plan.thumbnails.append(blobs[index].sha256)
                plan.files += blobs[index].thumbnails.map(\.path)
                usage -= blobs[index].thumbnailBytes
            }
            plan.reachesTarget = usage <= target
        }
        plan.bytesFreed = usageBefore - usage
        plan.usageAfter = usage
        return plan
    }
}
