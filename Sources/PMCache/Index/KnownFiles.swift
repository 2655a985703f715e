/// The files of the images the index holds, from rows a caller read under the writers' lock (a
/// prune's images, less the ones it dropped): `feedItems(feedKey:known:)` looks each item's
/// image up here instead of joining every item to its `originals` and `thumbnails` rows again,
/// which was most of the index's share of rewriting the pages of 45 feeds of 2000 items.
///
/// It reads the prune's own `EvictionImages` (shared, not copied), with a bit per image for
/// what the plan drops.
public struct KnownFiles: Sendable {
    private let images: EvictionImages
    private let originalDropped: BitSet
    private let thumbnailsDropped: BitSet

    /// The decoding warnings of the damaged originals (`PhotoIndex.originalWarnings`), by hash:
    /// the few there are, read apart from the eviction rows, which do not carry them.
    public var warnings: [String: String] = [:]
    /// The placeholders of the originals that stay (`PhotoIndex.placeholders(of:)`), by the
    /// images' positions: read apart from the eviction rows, which do not carry them, so that
    /// the pages a prune rewrites keep them.
    public var placeholders = TextColumn()

    /// The files of `images` but those `plan` drops.
    public init(images: EvictionImages, without plan: EvictionPlan) {
        func marked(_ dropped: [ImageHash]) -> BitSet {
            var bits = BitSet(count: images.count)
            for sha256 in dropped { if let index = images.position(of: sha256) { bits.insert(index) } }
            return bits
        }
        self.images = images
        originalDropped = marked(plan.originals)
        thumbnailsDropped = marked(plan.thumbnails)
    }

    /// The files of what the plan drops, by folder order of no importance: what to delete once
    /// the pages no longer name them. Made again from the images, so the plan's own list need
    /// not be held while the pages are rewritten.
    public func droppedFiles() -> [CachePath] {
        var files: [CachePath] = []
        for index in 0..<images.count {
            if originalDropped.contains(index), let path = images.originalPath(index) { files.append(path) }
            if thumbnailsDropped.contains(index) { files += images.thumbnailPaths(index) }
        }
        return files
    }

    /// The image's position when the plan keeps its original: only those show a placeholder.
    func keptOriginalPosition(of sha256: ImageHash) -> Int? {
        guard let index = images.position(of: sha256), images.hasOriginal(index), !originalDropped.contains(index) else { return nil }
        return index
    }

    /// What the index holds for the image: no file at all is an empty answer, never nil.
    func files(of sha256: String) -> PhotoIndex.ImageFiles {
        guard let index = images.position(of: ImageHash(sha256)) else {
            return PhotoIndex.ImageFiles(original: nil, thumbnails: [:])
        }
        let original = originalDropped.contains(index) ? nil : images.originalPath(index)
        var thumbnails: [String: String] = [:]
        if !thumbnailsDropped.contains(index) {
            for size in images.thumbnailSizes(index) {
                thumbnails[size] = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size)
            }
        }
        return PhotoIndex.ImageFiles(original: original?.description, thumbnails: thumbnails,
                                     warning: original == nil ? nil : warnings[sha256],
                                     placeholder: original == nil ? nil : placeholders.text(index))
    }
}

/// A short text per position, or none, in one buffer: no String and no hash-table entry for
/// each of 100 000 placeholders. Positions come in increasing order when the texts are read in
/// the order the positions were given; any other goes to `others`.
public struct TextColumn: Sendable {
    /// Where each position's text ends in `bytes`; it starts where the one before ends.
    private var ends: [UInt32] = []
    private var bytes: [UInt8] = []
    private var others: [Int: String] = [:]

    public init() {}

    mutating func set(_ text: UnsafeBufferPointer<UInt8>, at position: Int) {
        guard position >= ends.count, bytes.count + text.count < Int(UInt32.max) else {
            others[position] = String(decoding: text, as: UTF8.self)
            return
        }
        let end = UInt32(bytes.count)
        while ends.count < position { ends.append(end) }
        ends.append(end + UInt32(text.count))
        bytes.append(contentsOf: text)
    }

    /// The text at `position`; nil for none (an empty text is none).
    func text(_ position: Int) -> String? {
        if let other = others[position] { return other }
        guard position < ends.count else { return nil }
        let start = position == 0 ? 0 : Int(ends[position - 1]), end = Int(ends[position])
        guard end > start else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
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
