import CodecShim
import PMSupport

/// One thumbnail file format's encoder: packed sRGB pixels in, the file's bytes out. Each format
/// has its own beside its C shim (`PNGEncoding.swift` + `png_encode.c`, …); `encoding(for:)`
/// is the one place that picks.
protocol ThumbnailEncoding {
    /// Encodes the tile (RGB, or straight-alpha RGBA where the format keeps alpha) at `quality`
    /// (ignored by lossless formats). Throws with the format's name and the encoder's cause.
    static func encode(_ tile: PixelTile, quality: Int?) throws(ImageError) -> [UInt8]
}

extension ThumbnailFormat {
    /// The encoder that writes this format.
    var encoding: any ThumbnailEncoding.Type {
        switch self {
        case .png: PNGEncoding.self
        case .webp: WebPEncoding.self
        case .avif: AVIFEncoding.self
        case .jpeg: JPEGEncoding.self
        }
    }
}

extension PNGEncoding: ThumbnailEncoding {
    static func encode(_ tile: PixelTile, quality: Int?) throws(ImageError) -> [UInt8] {
        try encode(tile)
    }
}

extension CodecMessage {
    /// Runs an encoder shim over the tile's pixels and takes its buffer as the file's bytes.
    static func encoded(_ tile: PixelTile, format: String,
                        _ shim: (UnsafePointer<UInt8>?, UnsafeMutablePointer<pm_buffer>, UnsafeMutablePointer<CChar>) -> Int32)
        throws(ImageError) -> [UInt8] {
        let message = CodecMessage()
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let status = tile.pixels.withUnsafeBufferPointer { pixels in shim(pixels.baseAddress, &buffer, message.pointer) }
        guard status == 0, let data = buffer.data else { throw message.error("\(format) encode") }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
