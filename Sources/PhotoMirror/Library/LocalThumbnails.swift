import Foundation
import PMImaging
import PMSupport

/// Thumbnails of local images, without a cache: in memory, or written to a folder as
/// `photomirror thumb` does. Decoding runs on threads of its own, never on Swift's
/// cooperative pool.
public enum LocalThumbnails {
    /// Thumbnails of one image's bytes, by size, each in its size's format (PNG by default):
    /// decoded once, colour-managed to sRGB, oriented, cropped or letterboxed (the size's fit)
    /// and area-averaged to each size.
    public static func thumbnails(of data: Data, sizes: [ThumbnailSize], maxPixels: Int = ImagingOptions().maxPixels)
        async throws -> [ThumbnailSize: Data] {
        let pool = BlockingPool(threads: 1, name: "photomirror.library")
        defer { pool.shutdown() }
        let encoded = try await pool.run { () throws -> [[UInt8]] in
            try data.withUnsafeBytes { raw throws(ImageError) in
                try Thumbnailer.thumbnails(of: raw, sizes: sizes, limits: DecodeLimits(maxPixels: maxPixels)).files
            }
        }
        var bySize: [ThumbnailSize: Data] = [:]
        for (size, file) in zip(sizes, encoded) { bySize[size] = Data(file) }
        return bySize
    }

    /// Thumbnails of a file's image, by size.
    public static func thumbnails(of file: URL, sizes: [ThumbnailSize], maxPixels: Int = ImagingOptions().maxPixels)
        async throws -> [ThumbnailSize: Data] {
        try await thumbnails(of: try Data(contentsOf: file), sizes: sizes, maxPixels: maxPixels)
    }

    /// Writes a `size` thumbnail of each file into `folder` (`NAME.png`, or the size's format's extension), on one thread per
    /// core; returns the files that failed, with their reasons, and the damaged ones that were
    /// thumbnailed from what decodes, with the decoder's words.
    public static func write(_ files: [URL], size: ThumbnailSize, to folder: URL,
                             threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             maxPixels: Int = ImagingOptions().maxPixels) async throws -> ThumbBatch.Outcome {
        try await ThumbBatch(size: size, outputFolder: folder.path, threads: threads, maxPixels: maxPixels)
            .run(files.map(\.path))
    }
}
