import CodecShim
import PMSupport

/// Baseline JPEG through libjpeg-turbo (`jpeg_encode.c`). JPEG has no alpha: a tile with some is
/// flattened onto `PixelTile.opaqueBackground` first.
enum JPEGEncoding: ThumbnailEncoding {
    static func encode(_ tile: PixelTile, quality: Int?) throws(ImageError) -> [UInt8] {
        let quality = Int32(quality ?? ThumbnailFormat.jpeg.defaultQuality ?? 75)
        let opaque = tile.flattened()
        return try CodecMessage.encoded(opaque, format: "JPEG") { pixels, buffer, message in
            pm_jpeg_encode(pixels, Int32(opaque.width), Int32(opaque.height), quality, buffer, message)
        }
    }
}
