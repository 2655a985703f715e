import CodecShim
import PMSupport

/// Lossy WebP through libwebp (`webp_encode.c`), alpha kept losslessly.
enum WebPEncoding: ThumbnailEncoding {
    /// cwebp's default: `-m 4`.
    static let method: Int32 = 4

    static func encode(_ tile: PixelTile, quality: Int?) throws(ImageError) -> [UInt8] {
        let quality = Int32(quality ?? ThumbnailFormat.webp.defaultQuality ?? 75)
        return try CodecMessage.encoded(tile, format: "WebP") { pixels, buffer, message in
            pm_webp_encode(pixels, Int32(tile.width), Int32(tile.height), Int32(tile.channels), quality, method,
                           buffer, message)
        }
    }
}
