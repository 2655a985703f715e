import PMSupport

/// Whether this machine can write a thumbnail format, asked before a run rather than learnt from
/// every image's failure: AVIF needs libheif with an AV1 encoder, which not every libheif1 has.
public enum ThumbnailEncoderCheck {
    /// Nil when `format` can be written here; otherwise the encoder's reason ("AVIF encode: no
    /// AV1 encoder in this libheif (…)"). Encodes one 2x2 image; blocking, a few milliseconds
    /// (AVIF's first call loads libheif and its codecs).
    public static func unavailability(of format: ThumbnailFormat) -> String? {
        let tile = PixelTile(pixels: [UInt8](repeating: 128, count: 2 * 2 * 3), width: 2, height: 2, channels: 3)
        do {
            _ = try format.encoding.encode(tile, quality: format.defaultQuality)
            return nil
        } catch {
            return error.message
        }
    }
}
