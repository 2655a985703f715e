/// Bounds checked before any pixel memory is allocated, so a hostile header (a 65535×65535
/// "decompression bomb") fails in microseconds instead of exhausting memory.
public struct DecodeLimits: Sendable {
    /// Largest declared width × height accepted. It also bounds a multi-scan (progressive) JPEG's
    /// decoding work: its scans × declared pixels may not exceed 16 × maxPixels (at least 16 scans).
    public var maxPixels: Int
    /// Cap on libjpeg's whole-image buffers, checked before they are allocated. Only multi-scan
    /// (progressive) JPEGs need them: they keep every DCT coefficient at full resolution, about
    /// 2–6 bytes per pixel whatever the output scale. Baseline JPEGs stream and never hit it.
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
