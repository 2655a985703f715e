import Testing
import PMImaging

/// The box filter seen through the public API: synthetic PNGs in, decoded thumbnails out.
@Suite struct ResamplingTests {
    @Test func transparentPixelsLendNoColour() throws {
        // Red opaque next to black fully transparent; the 1×1 crop covers half of each.
        let png = try pngBytes(width: 2, height: 1, channels: 4, [255, 0, 0, 255, 0, 0, 0, 0])
        let result = try thumbnail(png, "1x1")
        #expect(result.channels == 4)
        #expect(result.pixel(0, 0) == [255, 0, 0, 128])  // straight averaging would give dark red
    }

    @Test func averagesExactBoxes() throws {
        // 4×4 grey levels; each 2×2 output pixel is the mean of one 2×2 block.
        let grey: [UInt8] = [0, 10, 100, 100,
                             20, 30, 100, 100,
                             200, 200, 1, 2,
                             200, 201, 3, 4]
        let png = try pngBytes(width: 4, height: 4, channels: 3, grey.flatMap { [$0, $0, $0] })
        let result = try thumbnail(png, "2x2")
        #expect(result.channels == 3)
        #expect([result.pixel(0, 0)[0], result.pixel(1, 0)[0], result.pixel(0, 1)[0], result.pixel(1, 1)[0]]
                == [15, 100, 200, 3])  // 200.25 and 2.5 round to 200 and 3
    }

    @Test func cropsToTheTargetAspectAroundTheCentre() throws {
        // 80×60: 10 black columns each side of a white middle; a square crop keeps columns 10..<70.
        var pixels = [UInt8]()
        for _ in 0..<60 {
            for x in 0..<80 { pixels += (10..<70).contains(x) ? [255, 255, 255] : [0, 0, 0] }
        }
        let result = try thumbnail(try pngBytes(width: 80, height: 60, channels: 3, pixels), "40x40")
        #expect(result.width == 40 && result.height == 40)
        #expect(result.bytes.allSatisfy { $0 == 255 })
    }

    @Test func upscalesSmallImagesToTheExactSize() throws {
        let png = try pngBytes(width: 1, height: 1, channels: 3, [12, 34, 56])
        let result = try thumbnail(png, "40x30")
        #expect(result.width == 40 && result.height == 30)
        #expect(result.pixel(0, 0) == [12, 34, 56] && result.pixel(39, 29) == [12, 34, 56])
    }

    @Test func opaqueAlphaIsDroppedAndPartialAlphaKept() throws {
        let opaque = try pngBytes(width: 2, height: 2, channels: 4, [UInt8](repeating: 255, count: 16))
        #expect(try thumbnail(opaque, "2x2").channels == 3)
        let translucent = try pngBytes(width: 2, height: 2, channels: 4, [9, 9, 9, 100] + [UInt8](repeating: 255, count: 12))
        let result = try thumbnail(translucent, "2x2")
        #expect(result.channels == 4 && result.pixel(0, 0) == [9, 9, 9, 100])
    }
}
