import CodecShim
import PMSupport

/// AVIF through libheif's AV1 encoder (libaom; `heif_encode.c`), alpha as an auxiliary image.
enum AVIFEncoding: ThumbnailEncoding {
    /// libaom's speed: 6 is avifenc's default.
    static let speed: Int32 = 6

    static func encode(_ tile: PixelTile, quality: Int?) throws(ImageError) -> [UInt8] {
        let quality = Int32(quality ?? ThumbnailFormat.avif.defaultQuality ?? 50)
        return try CodecMessage.encoded(tile, format: "AVIF") { pixels, buffer, message in
            pm_avif_encode(pixels, Int32(tile.width), Int32(tile.height), Int32(tile.channels), quality, speed,
                           buffer, message)
        }
    }
}
