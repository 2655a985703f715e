import Foundation
import PMCache
import PMImaging
import PMSupport

/// Files made for one original, and the rows to record once the storage holds them.
struct StoredFiles: Sendable {
    var files: [ContentFile]
    var original: OriginalRecord?
    var thumbnails: [ThumbnailRecord]
    /// The file was damaged, its thumbnails made from what decodes: what the decoder said.
    var warning: String?
    /// The image's ThumbHash, base64, as `originals.placeholder` keeps it.
    var placeholder: String?
}

/// Decodes an image once and makes its thumbnails and (for a download) the original's file,
/// with their rows. Blocking (decoding): runs on the codec pool. Thumbnails are made *before* the
/// original is taken, so bytes that don't decode are never kept. Writes nothing itself: the
/// storage stores the files, then the index records the rows.
struct ImageStorer {
    let sizes: [ThumbnailSize]
    let maxPixels: Int
    /// A download whose declared size is under this is left out (`--min-pixels`).
    var minPixels: PixelSize? = nil

    func downloaded(_ bytes: [UInt8], sha256: String, now: Double) throws -> StoredFiles {
        let format = try detectFormat(bytes)
        try checkDeclaredSize(bytes)
        var made = try thumbnails(of: bytes, sha256: sha256, now: now)
        let path = CacheLayout.originalPath(sha256: sha256, fileExtension: format.fileExtension)
        made.files.append(ContentFile(path: path, bytes: bytes, contentType: format.mimeType, sha256: sha256))
        made.original = OriginalRecord(sha256: sha256, path: path, bytes: bytes.count, format: format.name,
                                       storedAt: now, lastAccess: now, warning: made.warning, placeholder: made.placeholder)
        return made
    }

    func thumbnails(of bytes: [UInt8], sha256: String, now: Double) throws -> StoredFiles {
        let thumbnails: Thumbnails
        do {
            thumbnails = try Thumbnailer.thumbnails(of: bytes, sizes: sizes, limits: DecodeLimits(maxPixels: maxPixels))
        } catch {
            throw MediaFailure(reason: "cannot decode image: \(error.message)")
        }
        var made = StoredFiles(files: [], original: nil, thumbnails: [], warning: thumbnails.warning,
                               placeholder: thumbnails.placeholder.map { Data($0).base64EncodedString() })
        for (size, file) in zip(sizes, thumbnails.files) {
            let path = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size.description)
            made.files.append(ContentFile(path: path, bytes: file, contentType: size.format.mimeType))
            made.thumbnails.append(ThumbnailRecord(originalSHA256: sha256, size: size.description, bytes: file.count,
                                                   sha256: Digest.sha256Hex(file), storedAt: now, lastAccess: now))
        }
        return made
    }

    /// Throws `MediaSkip` for an image under `minPixels`, from its header alone. A header that
    /// cannot be read is left for the decode to report, as the failure it is.
    private func checkDeclaredSize(_ bytes: [UInt8]) throws {
        guard let minPixels,
              let declared = try? DeclaredSize(of: bytes, limits: DecodeLimits(maxPixels: maxPixels)),
              declared.width < minPixels.width || declared.height < minPixels.height else { return }
        throw MediaSkip(reason: "skipped: \(declared), under --min-pixels \(minPixels)")
    }

    private func detectFormat(_ bytes: [UInt8]) throws -> ImageFormat {
        if let format = bytes.withUnsafeBytes({ ImageFormat.sniff($0) }) { return format }
        throw MediaFailure(reason: ContentSniffer.describeNonImage(bytes))
    }
}
