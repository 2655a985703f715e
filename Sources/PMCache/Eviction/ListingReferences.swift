/// The items that name a cache's images, as a prune reads them apart from the images' own rows
/// (`PhotoIndex.listingReferences`) and then adds them (`EvictionImages.add`): each item's
/// image, when its feed listed it, and the number (in `feedKeys`) of the feed whose pages show
/// it, if any.
public struct ListingReferences: Sendable {
    public var feedKeys: [String] = []
    private(set) var hashes: [ImageHash] = []
    private(set) var listedAt: [Double] = []
    /// -1: no feed's pages show it (an item not settled yet).
    private(set) var feeds: [Int32] = []

    public var count: Int { hashes.count }

    mutating func reserveCapacity(_ count: Int) {
        hashes.reserveCapacity(count)
        listedAt.reserveCapacity(count)
        feeds.reserveCapacity(count)
    }

    mutating func append(_ sha256: ImageHash, listedAt time: Double, shownBy feed: Int32?) {
        hashes.append(sha256)
        listedAt.append(time)
        feeds.append(feed ?? -1)
    }

    /// Each reference's image and when it was listed, in order.
    var blobReferences: [BlobReference] {
        zip(hashes, listedAt).map { BlobReference(sha256: $0, listedAt: $1) }
    }
}

extension EvictionImages {
    /// Every reference of `references` (`addReference`), and their feeds' names.
    public mutating func add(_ references: ListingReferences) {
        for index in 0..<references.count {
            let feed = references.feeds[index]
            addReference(references.hashes[index], listedAt: references.listedAt[index], shownBy: feed < 0 ? nil : feed)
        }
        feedKeys = references.feedKeys
    }
}
