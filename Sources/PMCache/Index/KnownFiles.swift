/// The files of the images the index holds, from rows a caller read under the writers' lock (a
/// prune's eviction rows, less the ones it dropped): `feedItems(feedKey:known:)` looks each
/// item's image up here instead of joining every item to its `originals` and `thumbnails` rows
/// again, which was most of the index's share of rewriting the pages of 45 feeds of 2000 items.
public struct KnownFiles: Sendable {
    struct Image: Sendable {
        var original: CachePath?
        var thumbnails: [ContentName] = []
    }

    private var images: [ImageHash: Image] = [:]
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
        let droppedOriginals = Set(plan.originals), droppedThumbnails = Set(plan.thumbnails)
        images.reserveCapacity(blobs.count)
        for blob in blobs {
            var image = Image()
            if let original = blob.original, !droppedOriginals.contains(blob.sha256) { image.original = original.path }
            if !droppedThumbnails.contains(blob.sha256) {
                for thumbnail in blob.thumbnails {
                    guard case .content(let name) = thumbnail.path, name.sizeText != nil else { return nil }
                    image.thumbnails.append(name)
                }
            }
            if image.original != nil || !image.thumbnails.isEmpty { images[blob.sha256] = image }
        }
    }

    /// What the index holds for the image: no file at all is an empty answer, never nil.
    func files(of sha256: String) -> PhotoIndex.ImageFiles {
        guard let image = images[ImageHash(sha256)] else { return PhotoIndex.ImageFiles(original: nil, thumbnails: [:]) }
        var thumbnails: [String: String] = [:]
        for name in image.thumbnails { if let size = name.sizeText { thumbnails[size] = name.path } }
        return PhotoIndex.ImageFiles(original: image.original?.description, thumbnails: thumbnails,
                                     warning: image.original == nil ? nil : warnings[sha256],
                                     placeholder: image.original == nil ? nil : placeholders[ImageHash(sha256)])
    }
}
