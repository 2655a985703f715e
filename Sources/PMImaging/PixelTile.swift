/// A small packed 8-bit image (RGB or straight-alpha RGBA) owned by Swift: one thumbnail's
/// pixels between resampling and PNG encoding.
struct PixelTile: Equatable, Sendable {
    var pixels: [UInt8]
    var width: Int
    var height: Int
    var channels: Int

    /// RGB when every pixel is opaque: the PNG is smaller and decoders do less work.
    func droppingOpaqueAlpha() -> PixelTile {
        guard channels == 4 else { return self }
        var opaque = true
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { opaque = false; return }
                i += 4
            }
        }
        guard opaque else { return self }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for i in 0..<(width * height) {
                    target[i * 3] = source[i * 4]
                    target[i * 3 + 1] = source[i * 4 + 1]
                    target[i * 3 + 2] = source[i * 4 + 2]
                }
            }
        }
        return PixelTile(pixels: rgb, width: width, height: height, channels: 3)
    }
}
