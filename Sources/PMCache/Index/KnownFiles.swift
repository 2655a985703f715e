/// The files of the images the index holds, from rows a caller read under the writers' lock (a
/// prune's eviction rows, less the ones it dropped): `feedItems(feedKey:known:)` looks each
/// item's image up here instead of joining every item to its `originals` and `thumbnails` rows
/// again, which was most of the index's share of rewriting the pages of 45 feeds of 2000 items.
///
/// It reads the prune's own `blobs` (shared, not copied) through a table of their indices, with a
/// bit per image for what the plan drops: a dictionary of 100 000 images and their arrays of
/// thumbnail names held 30 MB beside the blobs, at the prune's peak; this holds 5.
public struct KnownFiles: Sendable {
    private let blobs: [CachedBlob]
    /// The blobs' hashes, apart from the blobs so that a probe copies no blob.
    private let hashes: [ImageHash]
    /// Open addressing: an index of `hashes` at its hash's slot or the next free one, -1 for
    /// none. Twice as many slots as images, and seeded hashing, so no feed can make probes long.
    private let slots: [Int32]
    private let originalDropped: BitSet
    private let thumbnailsDropped: BitSet

    /// The decoding warnings of the damaged originals (`PhotoIndex.originalWarnings`), by hash:
    /// the few there are, read apart from the eviction rows, which do not carry them.
    public var warnings: [String: String] = [:]
    /// The placeholders of the originals (`PhotoIndex.originalPlaceholders`), by hash: about
    /// 40 bytes an image, read apart from the eviction rows, which do not carry them, so that the
    /// pages a prune rewrites keep them.
    public var placeholders: [ImageHash: String] = [:]

    /// The files of `blobs` but those `plan` drops; nil when a thumbnail's path is not its own
    /// canonical name, which is what its size is read from.
    public init?(blobs: [CachedBlob], without plan: EvictionPlan) {
        guard blobs.count < Int(Int32.max) else { return nil }
        let hashes = blobs.map(\.sha256)
        var slots = [Int32](repeating: -1, count: max(2, blobs.count * 2).nextPowerOfTwo)
        let mask = slots.count - 1
        for (index, sha256) in hashes.enumerated() {
            var slot = sha256.hashValue & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
        func marked(_ dropped: [ImageHash]) -> BitSet {
            var bits = BitSet(count: blobs.count)
            for sha256 in dropped { if let index = Self.position(of: sha256, in: slots, hashes) { bits.insert(index) } }
            return bits
        }
        let originalDropped = marked(plan.originals), thumbnailsDropped = marked(plan.thumbnails)
        for (index, blob) in blobs.enumerated() where !thumbnailsDropped.contains(index) {
            for thumbnail in blob.thumbnails {
                guard case .content(let name) = thumbnail.path, name.sizeText != nil else { return nil }
            }
        }
        (self.blobs, self.hashes, self.slots) = (blobs, hashes, slots)
        (self.originalDropped, self.thumbnailsDropped) = (originalDropped, thumbnailsDropped)
    }

    /// The index in `hashes` (and the blobs) of the image.
    private static func position(of sha256: ImageHash, in slots: [Int32], _ hashes: [ImageHash]) -> Int? {
        let mask = slots.count - 1
        var slot = sha256.hashValue & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if hashes[index] == sha256 { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// What the index holds for the image: no file at all is an empty answer, never nil.
    func files(of sha256: String) -> PhotoIndex.ImageFiles {
        let hash = ImageHash(sha256)
        guard let index = Self.position(of: hash, in: slots, hashes) else { return PhotoIndex.ImageFiles(original: nil, thumbnails: [:]) }
        let blob = blobs[index]
        let original = originalDropped.contains(index) ? nil : blob.original?.path
        var thumbnails: [String: String] = [:]
        if !thumbnailsDropped.contains(index) {
            for thumbnail in blob.thumbnails {
                if case .content(let name) = thumbnail.path, let size = name.sizeText { thumbnails[size] = name.path }
            }
        }
        return PhotoIndex.ImageFiles(original: original?.description, thumbnails: thumbnails,
                                     warning: original == nil ? nil : warnings[sha256],
                                     placeholder: original == nil ? nil : placeholders[hash])
    }
}

private extension Int {
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}

/// A fixed number of bits, a word per 64.
struct BitSet: Sendable {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    func contains(_ index: Int) -> Bool {
        words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
}
