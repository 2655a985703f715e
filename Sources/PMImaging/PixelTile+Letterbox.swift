extension PixelTile {
    /// What JPEG, which has no alpha, shows under transparency and around a `contain` image:
    /// white, the background of most pages.
    static let opaqueBackground: UInt8 = 255

    /// RGB, with any alpha composited over `opaqueBackground`.
    func flattened() -> PixelTile {
        guard channels == 4 else { return self }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let background = Int(Self.opaqueBackground)
        pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for i in 0..<(width * height) {
                    let alpha = Int(source[i * 4 + 3])
                    for c in 0..<3 {
                        // Straight alpha: colour × a + background × (1 − a), rounded.
                        target[i * 3 + c] = UInt8((Int(source[i * 4 + c]) * alpha + background * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        return PixelTile(pixels: rgb, width: width, height: height, channels: 3)
    }

    /// The tile centred in a box of `boxWidth`×`boxHeight` (at least its own size): padded with
    /// transparent pixels (RGBA out) when `transparent`, else flattened and padded with
    /// `opaqueBackground` (RGB out). A tile that fills the box is returned as it is.
    func letterboxed(width boxWidth: Int, height boxHeight: Int, transparent: Bool) -> PixelTile {
        guard boxWidth != width || boxHeight != height else { return self }
        let source = transparent ? withAlpha() : flattened()
        let outChannels = source.channels
        let fill: UInt8 = transparent ? 0 : Self.opaqueBackground
        var boxed = [UInt8](repeating: fill, count: boxWidth * boxHeight * outChannels)
        let left = (boxWidth - width) / 2, top = (boxHeight - height) / 2
        let rowBytes = width * outChannels
        source.pixels.withUnsafeBufferPointer { from in
            boxed.withUnsafeMutableBufferPointer { to in
                for y in 0..<height {
                    let start = ((top + y) * boxWidth + left) * outChannels
                    for x in 0..<rowBytes { to[start + x] = from[y * rowBytes + x] }
                }
            }
        }
        return PixelTile(pixels: boxed, width: boxWidth, height: boxHeight, channels: outChannels)
    }

    /// RGBA: an RGB tile with every pixel opaque.
    private func withAlpha() -> PixelTile {
        guard channels == 3 else { return self }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            rgba[i * 4] = pixels[i * 3]
            rgba[i * 4 + 1] = pixels[i * 3 + 1]
            rgba[i * 4 + 2] = pixels[i * 3 + 2]
        }
        return PixelTile(pixels: rgba, width: width, height: height, channels: 4)
    }
}
