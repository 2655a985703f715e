import Testing
@testable import PMImaging

/// The placeholder the thumbnailer makes: the ThumbHash of the whole image (not the thumbnails'
/// centre crop), from the pixels it already decoded, whichever way the decoder scaled them.
@Suite struct ThumbnailPlaceholderTests {
    /// width × height RGB: red on the left third, green in the middle, blue on the right.
    static func bands(width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 3 ? [220, 30, 30] : x < 2 * width / 3 ? [30, 200, 30] : [30, 30, 220] }
        }
        return pixels
    }

    @Test func anImageThatFitsIsHashedAsItIs() throws {
        let pixels = Self.bands(width: 21, height: 9)
        let made = try Thumbnailer.thumbnails(of: try pngBytes(width: 21, height: 9, channels: 3, pixels),
                                              sizes: [ThumbnailSize(width: 40, height: 40)])
        var rgba: [UInt8] = []
        for i in 0..<(21 * 9) { rgba += pixels[i * 3..<i * 3 + 3] + [255] }
        #expect(made.placeholder == ThumbHash.encode(width: 21, height: 9, rgba: rgba))
    }

    @Test func aTileThatFitsIsHashedAsItsStraightPixelsWithClearOnesBlack() {
        var pixels: [UInt8] = []
        for i in 0..<(12 * 10) { pixels += [UInt8(i % 256), 90, UInt8(255 - i % 256), i % 7 == 0 ? 0 : UInt8(40 + i % 200)] }
        var expected = pixels
        for i in stride(from: 0, to: expected.count, by: 4) where expected[i + 3] == 0 { expected[i] = 0; expected[i + 1] = 0; expected[i + 2] = 0 }
        #expect(ThumbHash.encode(PixelTile(pixels: pixels, width: 12, height: 10, channels: 4))
                == ThumbHash.encode(width: 12, height: 10, rgba: expected))
    }

    @Test func theWholeImageIsHashedNotTheSquareCrop() throws {
        let source = try pngBytes(width: 300, height: 100, channels: 3, Self.bands(width: 300, height: 100))
        let made = try Thumbnailer.thumbnails(of: source, sizes: [ThumbnailSize(width: 40, height: 40)])
        let hash = try #require(made.placeholder)
        let image = try #require(ThumbHash.render(hash))
        #expect(image.width == 32 && image.height < 16, "landscape, as the image: \(image.width)x\(image.height)")
        let left = Array(image.rgba[(image.height / 2 * image.width) * 4..<(image.height / 2 * image.width) * 4 + 3])
        let right = Array(image.rgba[(image.height / 2 * image.width + image.width - 1) * 4..<(image.height / 2 * image.width + image.width) * 4 - 1])
        #expect(left[0] > left[2] + 60 && right[2] > right[0] + 60, "red on the left, blue on the right: \(left) \(right)")
    }

    @Test func theScaledAndTheWholePNGDecodeGiveTheSamePlaceholder() throws {
        let source = try pngBytes(width: 250, height: 180, channels: 3, Self.bands(width: 250, height: 180))
        #expect(try ScaledPNGDecodeTests.scalable(source))
        let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 80, height: 60)]
        let scaled = try source.withUnsafeBytes { try PNGDecoding.tiles($0, sizes: sizes, limits: .default, scaling: true) }
        let whole = try source.withUnsafeBytes { try PNGDecoding.tiles($0, sizes: sizes, limits: .default, scaling: false) }
        let tile = try #require(scaled.placeholder)
        #expect(tile == whole.placeholder)
        let side = ThumbnailGeometry.placeholderSide
        #expect(tile.width == side && tile.height == (180 * side + 125) / 250)
        #expect(scaled.tiles.count == 2, "the placeholder is not one of the thumbnails")
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func aJPEGDecodedSmallIsHashedFromThosePixels() throws {
        let made = try Thumbnailer.thumbnails(of: try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg"),
                                              sizes: [ThumbnailSize(width: 40, height: 40)])
        let hash = try #require(made.placeholder)
        #expect(hash.count >= 5 && ThumbHash.render(hash) != nil)
    }
}
