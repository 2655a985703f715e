/// Turns photo bytes into thumbnails, each in its size's fit and format (PNG cover by default). Synchronous and blocking by design: run it on
/// `PMSupport.BlockingPool`. Thread-safe: every call owns all of its codec state (colour
/// transforms are shared, behind a lock).
public enum Thumbnailer {
    /// Decodes once, converts an embedded colour profile to sRGB, applies EXIF orientation,
    /// centre-crops to each target aspect (cover) or letterboxes the whole image (contain) and
    /// area-averages (premultiplied alpha; upscales small images so output is always exactly the
    /// size), then encodes each in its size's format. Returns the file bytes per size, in order,
    /// and the image's `ThumbHash` (of the whole image, made from the same decoded pixels). The
    /// format comes from the bytes, never a file name;
    /// with no sizes the bytes are only sniffed. Opaque results are written as RGB, others as RGBA.
    /// A damaged file that still decodes in part (as browsers show it) gives its thumbnails and
    /// a `warning`; one where nothing decodes throws.
    public static func thumbnails(of bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize],
                                  limits: DecodeLimits = .default) throws(ImageError) -> Thumbnails {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(startingWith: bytes) }
        guard !sizes.isEmpty else { return Thumbnails(files: [], warning: nil, placeholder: nil) }
        let made = try format.tiles(bytes, sizes, limits)
        var files: [[UInt8]] = []
        files.reserveCapacity(made.tiles.count)
        for (tile, size) in zip(made.tiles, sizes) { files.append(try encode(tile, as: size)) }
        return Thumbnails(files: files, warning: made.warning.map { "\(format.displayName): \($0)" },
                          placeholder: made.placeholder.map { ThumbHash.encode($0) })
    }

    /// A contain tile letterboxed into its box, then written in the size's format.
    static func encode(_ tile: PixelTile, as size: ThumbnailSize) throws(ImageError) -> [UInt8] {
        var tile = tile
        if size.fit == .contain {
            tile = tile.letterboxed(width: size.width, height: size.height, transparent: size.format.hasAlpha)
        }
        return try size.format.encoding.encode(tile.droppingOpaqueAlpha(), quality: size.effectiveQuality)
    }

    public static func thumbnails(of bytes: [UInt8], sizes: [ThumbnailSize],
                                  limits: DecodeLimits = .default) throws(ImageError) -> Thumbnails {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try thumbnails(of: buffer, sizes: sizes, limits: limits) }
        }
        return try result.get()
    }

    /// `thumbnails(of:sizes:limits:)` without the warning (PNGs for the default sizes).
    public static func pngThumbnails(of bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        try thumbnails(of: bytes, sizes: sizes, limits: limits).files
    }

    public static func pngThumbnails(of bytes: [UInt8], sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        try thumbnails(of: bytes, sizes: sizes, limits: limits).files
    }
}

/// The thumbnail files of one image, one per size (each in its size's format), and what was wrong with a damaged file they
/// were still made from: "JPEG: Corrupt JPEG data: bad Huffman code (from row 64 of 128 on,
/// filled in by the decoder)". Nil for a whole file.
public struct Thumbnails: Sendable, Equatable {
    public let files: [[UInt8]]
    public let warning: String?
    /// The whole image's `ThumbHash` (about 25 bytes), from which `ThumbHash.render` paints a
    /// blurred placeholder; nil only when no size was asked for (nothing was decoded).
    public let placeholder: [UInt8]?

    /// The files, by the name they had when every thumbnail was a PNG (the default sizes').
    public var pngs: [[UInt8]] { files }
}
