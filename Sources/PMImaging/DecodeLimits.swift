/// Bounds checked before any pixel memory is allocated, so a hostile header (a 65535×65535
/// "decompression bomb") fails in microseconds instead of exhausting memory.
public struct DecodeLimits: Sendable {
    /// Largest declared width × height accepted.
    public var maxPixels: Int
    /// Cap on libjpeg's internal working memory (progressive JPEGs keep whole-image coefficient
    /// buffers at full resolution, whatever the output scale).
    public var maxDecoderMemory: Int

    public init(maxPixels: Int = 100_000_000, maxDecoderMemory: Int = 1 << 30) {
        self.maxPixels = maxPixels
        self.maxDecoderMemory = maxDecoderMemory
    }

    public static let `default` = DecodeLimits()

    func check(width: Int, height: Int) throws(ImageError) {
        // Multiplying two Int32-range values cannot overflow Int64.
        guard width * height <= maxPixels else {
            throw .overPixelLimit(width: width, height: height, limit: maxPixels)
        }
    }
}
