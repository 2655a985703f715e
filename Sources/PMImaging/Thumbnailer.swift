/// Turns photo bytes into "fill" PNG thumbnails. Synchronous and blocking by design: run it on
/// `PMSupport.BlockingPool`. Thread-safe: every call owns all of its codec state (colour
/// transforms are shared, behind a lock).
public enum Thumbnailer {
    /// Decodes once, converts an embedded colour profile to sRGB, applies EXIF orientation,
    /// centre-crops to each target aspect and area-averages (premultiplied alpha; upscales small images so output is always exactly the size).
    /// Returns PNG bytes per size, in order. The format comes from the bytes, never a file name;
    /// with no sizes the bytes are only sniffed. Opaque results are written as RGB, others as RGBA.
    public static func pngThumbnails(of bytes: UnsafeRawBufferPointer, sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(startingWith: bytes) }
        guard !sizes.isEmpty else { return [] }
        let tiles = try format.tiles(bytes, sizes, limits)
        var thumbnails: [[UInt8]] = []
        thumbnails.reserveCapacity(tiles.count)
        for tile in tiles { thumbnails.append(try PNGEncoding.encode(tile.droppingOpaqueAlpha())) }
        return thumbnails
    }

    public static func pngThumbnails(of bytes: [UInt8], sizes: [ThumbnailSize],
                                     limits: DecodeLimits = .default) throws(ImageError) -> [[UInt8]] {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try pngThumbnails(of: buffer, sizes: sizes, limits: limits) }
        }
        return try result.get()
    }
}
