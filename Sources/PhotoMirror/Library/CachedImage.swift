import Foundation
import PMCache

/// One image as the cache holds it: its original (unless a prune evicted it) and a thumbnail
/// per size. Paths are relative to the cache (the same in a folder and under a bucket's prefix).
public struct CachedImage: Sendable, Equatable {
    /// A file of the cache.
    public struct File: Sendable, Equatable {
        /// The path inside the cache, as manifests and pages name it (`originals/ab/….jpg`).
        public let path: String
        /// The file in the cache folder; for a cache whose files live in a bucket, the object
        /// is `path` under the bucket's prefix instead.
        public let fileURL: URL
    }

    /// The SHA-256 of the original's bytes, lowercase hex: the image's name in the cache.
    public let sha256: String
    /// The downloaded bytes as served, or nil when a prune evicted them (thumbnails stay).
    public let original: File?
    /// The original's format as sniffed from its bytes (`jpeg`, `png`, `webp`, `gif`, `avif`,
    /// `heic`); nil when it was evicted or not looked up.
    public let format: String?
    /// The thumbnails that are stored, by size.
    public let thumbnails: [ThumbnailSize: File]
    /// The image's ThumbHash (about 25 bytes, https://evanw.github.io/thumbhash/): a blurred
    /// placeholder of the whole image to show while a thumbnail loads, painted by
    /// `ThumbHash.render` (PMImaging) or any ThumbHash decoder. Nil when the original was
    /// evicted (the hash is kept with the original's row) or stored before photomirror made one.
    public let placeholder: [UInt8]?

    init(_ sha256: String, original: OriginalRecord?, thumbnails: some Sequence<ThumbnailRecord>, in folder: URL) {
        var paths: [String: String] = [:]
        for record in thumbnails { paths[record.size] = record.path }
        self.init(sha256, files: PhotoIndex.ImageFiles(original: original?.path, thumbnails: paths,
                                                       placeholder: original?.placeholder),
                  format: original?.format, in: folder)
    }

    init(_ sha256: String, files: PhotoIndex.ImageFiles, format: String?, in folder: URL) {
        func file(_ path: String) -> File {
            File(path: path, fileURL: folder.appending(path: path, directoryHint: .notDirectory))
        }
        self.sha256 = sha256
        original = files.original.map(file)
        self.format = format
        var bySize: [ThumbnailSize: File] = [:]
        for (size, path) in files.thumbnails {
            guard let size = ThumbnailSize(variant: size) else { continue }
            bySize[size] = file(path)
        }
        thumbnails = bySize
        placeholder = files.placeholder.flatMap { Data(base64Encoded: $0) }.map(Array.init)
    }
}
