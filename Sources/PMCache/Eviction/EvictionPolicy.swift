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
    /// What the documents and the index lose with a listed image's original besides its file:
    /// its link and placeholder on the feed's pages and in its manifest and JSON Feed, and its
    /// rows. Measured at 1.2 KB per original on `bench_prune`'s 100 000 images and 0.8 KB on
    /// bench target 14's 2000 photos; a prune that did not count it landed below its target by
    /// that much per image (71 % of it there). A plan that counts too much stops above the
    /// target, and the next round's measure takes the rest.
    public static let listedOriginalDocumentBytes = 1024

    /// `documentBytesPerOriginal`: what the documents and rows shrink by with each listed
    /// original evicted, besides its file (`listedOriginalDocumentBytes` for a prune).
    public static func plan(images: EvictionImages, usage: Int, goal: EvictionGoal,
                            documentBytesPerOriginal: Int = 0) -> EvictionPlan {
        var plan = EvictionPlan()
        let usageBefore = usage
        var usage = usage
        let lastUsed = images.lastUsed, hashes = images.hashes
        let byAge = ageOrder(images)
        var expired = 0
        // What goes, in order: an image's index for its original, its complement for its
        // thumbnails. The plan's arrays are made from it at their exact size, not grown by
        // doubling: at 100 000 images they are megabytes each.
        var events: [Int32] = []
        func evictOriginal(_ index: Int) {
            guard images.hasOriginal(index) else { return }
            events.append(Int32(index))
            usage -= images.originalBytes(index)
        }
        func evictThumbnails(_ index: Int) {
            guard images.hasThumbnails(index) else { return }
            events.append(~Int32(index))
            usage -= images.thumbnailBytes(index)
        }

        if let cutoff = goal.expireBefore {
            for index in byAge.lazy.map(Int.init) {
                guard lastUsed[index] < cutoff else { break }
                expired += 1
                evictOriginal(index)
                evictThumbnails(index)
            }
        }
        plan.expired = expired
        if let target = goal.targetBytes {
            // Expired images are the first `expired` of the order: the rest start after them, and
            // end before the first one used since `keepUsedSince`.
            let keep = goal.keepUsedSince ?? .infinity
            let remaining = byAge.dropFirst(expired).lazy.map(Int.init).prefix { lastUsed[$0] < keep }
            for index in remaining {
                guard usage > target else { break }
                let isListed = images.isListed(index)
                if images.hasOriginal(index) {
                    evictOriginal(index)
                    if isListed { usage -= documentBytesPerOriginal }
                }
                if !isListed, images.hasThumbnails(index) {
                    plan.unlisted += 1
                    evictThumbnails(index)
                }
            }
            for index in remaining {
                guard usage > target else { break }
                guard images.isListed(index) else { continue }
                evictThumbnails(index)
            }
            plan.reachesTarget = usage <= target
        }
        plan.bytesFreed = usageBefore - usage
        plan.usageAfter = usage
        let originalCount = events.count { $0 >= 0 }
        plan.originals.reserveCapacity(originalCount)
        plan.thumbnails.reserveCapacity(events.count - originalCount)
        plan.files.reserveCapacity(events.count)
        for event in events {
            if event >= 0 {
                let index = Int(event)
                plan.originals.append(hashes[index])
                if let path = images.originalPath(index) { plan.files.append(path) }
            } else {
                let index = Int(~event)
                plan.thumbnails.append(hashes[index])
                plan.files += images.thumbnailPaths(index)
            }
        }
        return plan
    }

    /// The images' indexes, oldest first; the hash breaks ties so the same cache always gives
    /// the same plan. Sorted as plain keys: the images of one sync are equally recent, so most
    /// comparisons are ties, and comparing the hashes themselves copies two enums each time.
    static func ageOrder(_ images: EvictionImages) -> [Int32] {
        struct Key {
            var lastUsed: Double
            /// The hash's first 16 hex digits as a number, when it is packed: hashes whose
            /// numbers differ sort as these do.
            var leadingWord: UInt64?
            var index: Int32
        }
        let hashes = images.hashes
        var keys = images.lastUsed.indices.map { index in
            let leadingWord: UInt64? = if case .packed(let hash) = hashes[index] { hash.leadingWord } else { nil }
            return Key(lastUsed: images.lastUsed[index], leadingWord: leadingWord, index: Int32(index))
        }
        keys.sort { left, right in
            if left.lastUsed != right.lastUsed { return left.lastUsed < right.lastUsed }
            if let leftWord = left.leadingWord, let rightWord = right.leadingWord, leftWord != rightWord {
                return leftWord < rightWord
            }
            return hashes[Int(left.index)] < hashes[Int(right.index)]
        }
        return keys.map(\.index)
    }
}
