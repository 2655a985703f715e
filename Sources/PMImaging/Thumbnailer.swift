/// Turns photo bytes into "fill" PNG thumbnails. Synchronous and blocking by design: run it on
/// `PMSupport.BlockingPool`. Thread-safe: every call owns all of its codec state (colour
/// transforms are shared, behind a lock).
public enum Thumbnailer {
    /// Decodes once, converts an embedded colour profile to sRGB, applies EXIF orientation,
    /// centre-crops to each target aspect and area-averages (premultiplied alpha; upscales small images so output is always exactly the size).
    /// Returns PNG bytes per size, in order, and the image's `ThumbHash` (of the whole image, made
    /// from the same decoded pixels). The format comes from the bytes, never a file name;
    /// with no sizes the bytes are only sniffed. Opaque results are written as RGB, others as RGBA.
    /// A damaged file that still decodes in part (as browsers show it) gives its thumbnails and
    /// a `warning`; one where nothing decodes throws.
    public static func thumbnails(of bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize],
                                  limits: DecodeLimits = .default) throws(ImageError) -> Thumbnails {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(startingWith: bytes) }
        guard !sizes.isEmpty else { return Thumbnails(pngs: [], warning: nil, placeholder: nil) }
        let made = try format.tiles(bytes, sizes, limits)
        var pngs: [[UInt8]] = []
        pngs.reserveCapacity(made.tiles.count)
        for tile in made.tiles { pngs.append(try PNGEncoding.encode(tile.droppingOpaqueAlpha())) }
        return Thumbnails(pngs: pngs, warning: made.warning.map { "\(format.displayName): \($0)" },
                          placeholder: made.placeholder.map { ThumbHash.encode($0) })
    }

    public static func thumbnails(of bytes: [UInt8], sizes: [ThumbnailSize],
                                  limits: DecodeLimits = .default) throws(ImageError) -> Thumbnails {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try thumbnails(of: buffer, sizes: sizes, limits: limits) }
        }
        return try result.get()
    }

    /// `thumbnails(of:sizes:limits:)` without the warning.
    public static func pngThumbnails(of bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        try thumbnails(of: bytes, sizes: sizes, limits: limits).pngs
    }

    public static func pngThumbnails(of bytes: [UInt8], sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        try thumbnails(of: bytes, sizes: sizes, limits: limits).pngs
    }
}

/// The PNG thumbnails of one image, one per size, and what was wrong with a damaged file they
/// were still made from: "JPEG: Corrupt JPEG data: bad Huffman code (from row 64 of 128 on,
/// filled in by the decoder)". Nil for a whole file.
public struct Thumbnails: Sendable, Equatable {
    public let pngs: [[UInt8]]
    public let warning: String?
    /// The whole image's `ThumbHash` (about 25 bytes), from which `ThumbHash.render` paints a
    /// blurred placeholder; nil only when no size was asked for (nothing was decoded).
    public let placeholder: [UInt8]?
}
