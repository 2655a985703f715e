/// The images of a cache as a prune decides over them: an original and its thumbnails per
/// content-addressed image, however many items name it, with when it was last used and whether
/// anything lists it. Plain data (`EvictionPolicy` plans over it), filled from index rows and
/// the disk use a scan measured.
///
/// Packed in columns, about 75 bytes an image, because a prune holds 100 000 of them within its
/// memory bound: a path is kept only where it is not the canonical name made from the image's
/// hash (an original's extension is one byte, a thumbnail's is made from its size), and the
/// sets of thumbnail sizes are shared.
public struct EvictionImages: Sendable {
    public private(set) var hashes: [ImageHash] = []
    /// The last time anything used each image: a sync listing an item that names it (the
    /// feed's `last_sync`) or a read touching its rows (`last_access`). An image shared by several
    /// items or feeds is as recent as the most recent of them.
    public private(set) var lastUsed: [Double] = []
    /// The disk use of each image's original (0 when its file is missing); `noOriginal` without a row.
    private var originalDisk: [Int] = []
    /// The original's extension code when its path is its canonical name, else `otherPath`.
    private var originalNames: [UInt8] = []
    private var otherOriginalPaths: [Int32: CachePath] = [:]
    /// The disk use of each image's thumbnails, every size.
    private var thumbnailDisk: [Int] = []
    /// Each image's thumbnail sizes, as an index into `sizeSets`.
    private var thumbnailSets: [UInt32] = []
    private var sizeSets = SizeSets()
    /// Whether an item or a feed names the image: only then is a thumbnail without its original
    /// worth keeping (a page shows it).
    private var listed: [Bool] = []
    /// Open addressing: an index of `hashes` at its hash's slot (`slotHash`) or the next free
    /// one, -1 for none. At least twice as many slots as images.
    private var slots = [Int32](repeating: -1, count: 16)
    /// The feeds `addReference` numbers, by number.
    public var feedKeys: [String] = []
    /// The feed whose pages show each image: its number, `noFeed` or `severalFeeds`
    /// (`otherFeeds` has them: an image shared by feeds is the exception).
    private var feeds: [Int32] = []
    private var otherFeeds: [Int32: Set<Int32>] = [:]
    /// How many of the rows' files the disk holds (under the content folders, not temp files):
    /// equal to a scan's `contentFileCount` when no file there lacks a row.
    public private(set) var filesOnDisk = 0

    private static let noOriginal = -1
    private static let noFeed: Int32 = -1
    private static let severalFeeds: Int32 = -2
    private static let otherPath = UInt8.max

    public init() {}

    public var count: Int { hashes.count }

    // MARK: Filling

    /// An original's row. Its disk use is 0 until `measure`.
    public mutating func addOriginal(_ sha256: ImageHash, path: CachePath, lastAccess: Double) {
        let index = slot(for: sha256, usedAt: lastAccess)
        originalDisk[index] = 0
        if case .content(let name) = path, case .packed(let hash) = sha256, name.hash == hash,
           let code = name.originalExtensionCode, code != Self.otherPath {
            originalNames[index] = code
        } else {
            originalNames[index] = Self.otherPath
            otherOriginalPaths[Int32(index)] = path
        }
        if lastUsed[index] < lastAccess { lastUsed[index] = lastAccess }
    }

    /// A thumbnail's row, `size` as the index names it. Its disk use is 0 until `measure`.
    public mutating func addThumbnail(_ sha256: ImageHash, size: String, lastAccess: Double) {
        let index = slot(for: sha256, usedAt: lastAccess)
        thumbnailSets[index] = sizeSets.adding(size, to: thumbnailSets[index])
        if lastUsed[index] < lastAccess { lastUsed[index] = lastAccess }
    }

    /// Sizes every file the rows name by `diskBytes` (nil: no file there, which frees nothing),
    /// and counts the ones the disk holds under the content folders (`filesOnDisk`). The rows
    /// are read while the disk is walked, and sized once both are done.
    public mutating func measure(by diskBytes: (CachePath) -> Int?) {
        filesOnDisk = 0
        for index in hashes.indices {
            if let path = originalPath(index) {
                let bytes = diskBytes(path)
                originalDisk[index] = bytes ?? 0
                if bytes != nil, path.isOriginal == true, !Self.isTemp(path) { filesOnDisk += 1 }
            }
            var thumbnailBytes = 0
            sizeSets.forEachPath(thumbnailSets[index], of: hashes[index]) { path in
                guard let bytes = diskBytes(path) else { return }
                thumbnailBytes += bytes
                if path.isOriginal == false, !Self.isTemp(path) { filesOnDisk += 1 }
            }
            thumbnailDisk[index] = thumbnailBytes
        }
    }

    /// An item or feed naming the image, listed at `listedAt`: it only makes a stored image more
    /// recent, and never creates one. `feed`: the number (in `feedKeys`) of the feed whose pages
    /// show it, nil when none does (an item not settled yet).
    public mutating func addReference(_ sha256: ImageHash, listedAt: Double, shownBy feed: Int32? = nil) {
        guard let index = position(of: sha256) else { return }
        listed[index] = true
        if lastUsed[index] < listedAt { lastUsed[index] = listedAt }
        guard let feed, feed >= 0 else { return }
        switch feeds[index] {
        case Self.noFeed: feeds[index] = feed
        case feed: break
        case Self.severalFeeds: otherFeeds[Int32(index), default: []].insert(feed)
        case let first:
            feeds[index] = Self.severalFeeds
            otherFeeds[Int32(index)] = [first, feed]
        }
    }

    /// The feeds whose pages show any of `images`: what dropping their rows makes stale.
    public func feedKeys(showing images: some Sequence<ImageHash>) -> Set<String> {
        var numbers = Set<Int32>()
        for sha256 in images {
            guard let index = position(of: sha256) else { continue }
            switch feeds[index] {
            case Self.noFeed: break
            case Self.severalFeeds: numbers.formUnion(otherFeeds[Int32(index)] ?? [])
            case let feed: numbers.insert(feed)
            }
        }
        return Set(numbers.compactMap { Int($0) < feedKeys.count ? feedKeys[Int($0)] : nil })
    }

    /// Room for `count` images without growing.
    public mutating func reserveCapacity(_ count: Int) {
        hashes.reserveCapacity(count)
        lastUsed.reserveCapacity(count)
        originalDisk.reserveCapacity(count)
        originalNames.reserveCapacity(count)
        thumbnailDisk.reserveCapacity(count)
        thumbnailSets.reserveCapacity(count)
        listed.reserveCapacity(count)
        feeds.reserveCapacity(count)
        if slots.count < count * 2 { rehash(capacity: (count * 2).nextPowerOfTwo) }
    }

    private static func isTemp(_ path: CachePath) -> Bool {
        if case .text(let text) = path { return DiskScan.isTemp(text) }
        return false
    }

    /// The image's index, a new one when it has none yet.
    private mutating func slot(for sha256: ImageHash, usedAt time: Double) -> Int {
        if let index = position(of: sha256) { return index }
        if (hashes.count + 1) * 2 > slots.count { rehash(capacity: slots.count * 2) }
        let index = hashes.count
        hashes.append(sha256)
        lastUsed.append(time)
        originalDisk.append(Self.noOriginal)
        originalNames.append(Self.otherPath)
        thumbnailDisk.append(0)
        thumbnailSets.append(SizeSets.none)
        listed.append(false)
        feeds.append(Self.noFeed)
        insertSlot(index)
        return index
    }

    private mutating func rehash(capacity: Int) {
        slots = [Int32](repeating: -1, count: capacity)
        for index in hashes.indices { insertSlot(index) }
    }

    private mutating func insertSlot(_ index: Int) {
        let mask = slots.count - 1
        var slot = slotHash(hashes[index]) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }

    /// Drops what only a plan reads (when each image was used, its disk use, its listing and
    /// feeds) and keeps where its files are: all `KnownFiles` reads while a prune's pages are
    /// rewritten, its most memory-hungry phase. Plan over images read afresh after this.
    public mutating func keepOnlyFiles() {
        (lastUsed, thumbnailDisk, listed, feeds, otherFeeds) = ([], [], [], [], [:])
    }

    /// Random per process, as Swift's own hashing is seeded; kept in each value so a lookup
    /// reads no global.
    private let slotMultiplier = Self.processMultiplier
    private static let processMultiplier = UInt64.random(in: .min ... .max) | 1

    /// A packed hash's first word times a random odd number, from bit 32 up: bit k of it
    /// depends on the multiplier and on the word's bits 0 to k, so no feed can choose images
    /// that share a slot. Several times cheaper than `hashValue`, which runs SipHash.
    private func slotHash(_ sha256: ImageHash) -> Int {
        guard case .packed(let hash) = sha256 else { return sha256.hashValue }
        return Int(truncatingIfNeeded: (hash.leadingWord &* slotMultiplier) >> 32)
    }

    // MARK: Reading

    /// The index of the image in these columns; nil when no row names it.
    public func position(of sha256: ImageHash) -> Int? {
        let mask = slots.count - 1
        var slot = slotHash(sha256) & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if hashes[index] == sha256 { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    public func isListed(_ index: Int) -> Bool { listed[index] }

    public func hasOriginal(_ index: Int) -> Bool { originalDisk[index] != Self.noOriginal }

    /// The disk use of the image's original; 0 without one.
    public func originalBytes(_ index: Int) -> Int { max(0, originalDisk[index]) }

    public func thumbnailBytes(_ index: Int) -> Int { thumbnailDisk[index] }

    public func hasThumbnails(_ index: Int) -> Bool { thumbnailSets[index] != SizeSets.none }

    /// Where the image's original is; nil when no row names one.
    public func originalPath(_ index: Int) -> CachePath? {
        guard hasOriginal(index) else { return nil }
        if originalNames[index] != Self.otherPath, case .packed(let hash) = hashes[index],
           let name = ContentName(original: hash, extensionCode: originalNames[index]) {
            return .content(name)
        }
        return otherOriginalPaths[Int32(index)]
    }

    /// The sizes of the image's thumbnails, as the index names them.
    public func thumbnailSizes(_ index: Int) -> [String] { sizeSets.sizes(thumbnailSets[index]) }

    /// Where the image's thumbnails are (`CacheLayout.thumbnailPath` of each size).
    public func thumbnailPaths(_ index: Int) -> [CachePath] {
        var paths: [CachePath] = []
        sizeSets.forEachPath(thumbnailSets[index], of: hashes[index]) { paths.append($0) }
        return paths
    }

    /// `CacheLayout.thumbnailPath`, packed, spelled on the stack.
    static func thumbnailPath(_ sha256: ImageHash, size: String) -> CachePath {
        var size = size
        return size.withUTF8 { size in
            switch sha256 {
            case .packed(let hash):
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { hex in
                    var count = 0
                    hash.forEachHexDigit { hex[count] = $0; count += 1 }
                    return CachePath(thumbnailOf: UnsafeBufferPointer(hex), size: size)
                }
            case .text(var text):
                return text.withUTF8 { CachePath(thumbnailOf: $0, size: size) }
            }
        }
    }

    /// Every file the rows name: originals, then thumbnails.
    public func forEachFile(_ body: (CachePath) -> Void) {
        for index in hashes.indices {
            if let path = originalPath(index) { body(path) }
            for path in thumbnailPaths(index) { body(path) }
        }
    }
}

/// The distinct sets of thumbnail sizes images have, each stored once: nearly every image has
/// the same one or two.
struct SizeSets: Sendable {
    static let none: UInt32 = 0
    private var sets: [[String]] = [[]]
    /// Each set's thumbnail names for any hash (`ContentName.thumbnailTemplate`), nil for a
    /// size whose paths are kept as text: a size's path is parsed once, not once per image.
    private var templates: [[ContentName?]] = [[]]
    private var numbers: [[String]: UInt32] = [[]: 0]
    /// The last `adding`: the rows of 100 000 images add the same size to the same set, and
    /// each lookup of a grown set would allocate it and hash its strings.
    private var lastAdded: (size: String, to: UInt32, number: UInt32)?

    /// The number of the set `number` with `size` added.
    mutating func adding(_ size: String, to number: UInt32) -> UInt32 {
        if let lastAdded, lastAdded.to == number, lastAdded.size == size { return lastAdded.number }
        let grown = grown(number, by: size)
        lastAdded = (size, number, grown)
        return grown
    }

    private mutating func grown(_ number: UInt32, by size: String) -> UInt32 {
        let current = sets[Int(number)]
        guard !current.contains(size) else { return number }
        let grown = current + [size]
        if let found = numbers[grown] { return found }
        let new = UInt32(sets.count)
        sets.append(grown)
        templates.append(templates[Int(number)] + [ContentName.thumbnailTemplate(size: size)])
        numbers[grown] = new
        return new
    }

    func sizes(_ number: UInt32) -> [String] { sets[Int(number)] }

    /// `EvictionImages.thumbnailPath` of each size of the set `number`, in the set's order.
    func forEachPath(_ number: UInt32, of sha256: ImageHash, _ body: (CachePath) -> Void) {
        let sizes = sets[Int(number)], names = templates[Int(number)]
        for position in sizes.indices {
            if let name = names[position], case .packed(let hash) = sha256 {
                body(.content(name.replacingHash(hash)))
            } else {
                body(EvictionImages.thumbnailPath(sha256, size: sizes[position]))
            }
        }
    }
}

extension Int {
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
