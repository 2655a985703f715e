import Foundation
import PMImaging
import PMSupport

/// Thumbnails of local images, without a cache: in memory, or written to a folder as
/// `photomirror thumb` does. Decoding runs on threads of its own, never on Swift's
/// cooperative pool.
public enum LocalThumbnails {
    /// PNG thumbnails of one image's bytes, by size: decoded once, colour-managed to sRGB,
    /// oriented, centre-cropped and area-averaged to each size.
    public static func thumbnails(of data: Data, sizes: [ThumbnailSize], maxPixels: Int = ImagingOptions().maxPixels)
        async throws -> [ThumbnailSize: Data] {
        let pool = BlockingPool(threads: 1, name: "photomirror.library")
        defer { pool.shutdown() }
        let encoded = try await pool.run { () throws -> [[UInt8]] in
            try data.withUnsafeBytes { raw throws(ImageError) in
                try Thumbnailer.pngThumbnails(of: raw, sizes: sizes, limits: DecodeLimits(maxPixels: maxPixels))
            }
        }
        var bySize: [ThumbnailSize: Data] = [:]
        for (size, png) in zip(sizes, encoded) { bySize[size] = Data(png) }
        return bySize
    }

    /// PNG thumbnails of a file's image, by size.
    public static func thumbnails(of file: URL, sizes: [ThumbnailSize], maxPixels: Int = ImagingOptions().maxPixels)
        async throws -> [ThumbnailSize: Data] {
        try await thumbnails(of: try Data(contentsOf: file), sizes: sizes, maxPixels: maxPixels)
    }

    /// Writes a `size` thumbnail of each file into `folder` (`NAME.png`), on one thread per
    /// core; returns the files that failed, with their reasons, and the damaged ones that were
    /// thumbnailed from what decodes, with the decoder's words.
    public static func write(_ files: [URL], size: ThumbnailSize, to folder: URL,
                             threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             maxPixels: Int = ImagingOptions().maxPixels) async throws -> ThumbBatch.Outcome {
        try await ThumbBatch(size: size, outputFolder: folder.path, threads: threads, maxPixels: maxPixels)
            .run(files.map(\.path))
    }
}
