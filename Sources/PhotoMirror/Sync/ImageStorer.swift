import PMCache
import PMImaging
import PMSupport

/// Files written for one original: the rows to record once they are in place.
struct StoredFiles: Sendable {
    var original: OriginalRecord?
    var thumbnails: [ThumbnailRecord]
}

/// Decodes an image once, writes its thumbnails and (for a download) the original, each
/// atomically. Blocking: runs on the blocking pool. Thumbnails are made *before* the original
/// is written, so bytes that don't decode are never kept.
struct ImageStorer {
    let store: BlobStore
    let sizes: [ThumbnailSize]
    let maxPixels: Int

    func storeDownloaded(_ bytes: [UInt8], sha256: String, now: Double) throws -> StoredFiles {
        let format = try detectFormat(bytes)
        let thumbnails = try storeThumbnails(of: bytes, sha256: sha256, now: now).thumbnails
        let path = CacheLayout.originalPath(sha256: sha256, fileExtension: format.fileExtension)
        try store.store(bytes, at: path)
        let original = OriginalRecord(sha256: sha256, path: path, bytes: bytes.count, format: format.name,
                                      storedAt: now, lastAccess: now)
        return StoredFiles(original: original, thumbnails: thumbnails)
    }

    func storeThumbnails(of bytes: [UInt8], sha256: String, now: Double) throws -> StoredFiles {
        let pngs: [[UInt8]]
        do {
            pngs = try Thumbnailer.pngThumbnails(of: bytes, sizes: sizes, limits: DecodeLimits(maxPixels: maxPixels))
        } catch {
            throw MediaFailure(reason: "cannot decode image: \(error.message)")
        }
        var records: [ThumbnailRecord] = []
        for (size, png) in zip(sizes, pngs) {
            let path = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size.description)
            try store.store(png, at: path)
            records.append(ThumbnailRecord(originalSHA256: sha256, size: size.description, path: path,
                                           bytes: png.count, sha256: Digest.sha256Hex(png),
                                           storedAt: now, lastAccess: now))
        }
        return StoredFiles(original: nil, thumbnails: records)
    }

    private func detectFormat(_ bytes: [UInt8]) throws -> ImageFormat {
        if let format = bytes.withUnsafeBytes({ ImageFormat.sniff($0) }) { return format }
        throw MediaFailure(reason: ContentSniffer.describeNonImage(bytes))
    }
}
