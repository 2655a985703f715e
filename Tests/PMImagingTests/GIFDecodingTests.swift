import Foundation
import Testing
@testable import PMImaging

/// The GIF decoder against real files (giflib's and Pillow's test pictures in Fixtures/gif) and
/// crafted ones. Expected pixels come from Pillow, not giflib: Fixtures/gif/make_expected.py
/// wrote expected/<name>.png and says how.
@Suite struct GIFDecodingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gif")

    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".gif") }.sorted()

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func expected(_ gif: String) throws -> Pixels {
        try Pixels(png: bytes("expected/" + gif.replacingOccurrences(of: ".gif", with: ".png")))
    }

    static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws -> Pixels {
        try bytes.withUnsafeBytes { buffer in
            let image = try GIFDecoding.decode(buffer, limits: limits)
            let count = image.width * image.height * image.channels
            return Pixels(width: image.width, height: image.height, channels: image.channels,
                          bytes: Array(UnsafeBufferPointer(start: image.raw.data, count: count)))
        }
    }

    @Test func folderHoldsTheFixtures() {
        #expect(Self.fixtures.count == 12)
    }

    /// Global palettes (hopper, porsche), local only (missing_background), transparency indexes
    /// (transparent, x-trans), a frame offset on a wider screen (first_frame_transparency),
    /// interlacing (x-trans, treescap-interlaced, first_frame_transparency), animations
    /// (dispose_none, missing_background), no colour map at all (no_palette: grey levels), an
    /// empty comment extension before the image (hopper_zero_comment_subblocks) and image data
    /// with an LZW minimum code size of 11, which giflib refuses (issue_2811).
    @Test(arguments: fixtures)
    func firstFrameMatchesPillow(file: String) throws {
        let decoded = try Self.decode(try Self.bytes(file))
        let expected = try Self.expected(file)
        #expect(decoded.width == expected.width && decoded.height == expected.height)
        #expect(decoded.channels == expected.channels)
        #expect(decoded == expected, "\(file) differs from Pillow's first frame")
    }

    @Test func interlacedEqualsNonInterlaced() throws {
        let plain = try Self.decode(try Self.bytes("treescap.gif"))
        let interlaced = try Self.decode(try Self.bytes("treescap-interlaced.gif"))
        #expect(plain == interlaced)
    }

    @Test func frameOffsetLeavesTheRestOfTheScreenTransparent() throws {
        // A 50×50 frame at x = 25 on a 75×50 screen, with transparency index 1.
        let image = try Self.decode(try Self.bytes("first_frame_transparency.gif"))
        #expect(image.width == 75 && image.height == 50 && image.channels == 4)
        for y in [0, 25, 49] {
            for x in [0, 12, 24] { #expect(image.pixel(x, y) == [0, 0, 0, 0]) }
        }
        #expect((25..<75).contains { x in image.pixel(x, 25)[3] == 255 })
    }

    @Test func opaqueCoveringFrameIsRGB() throws {
        #expect(try Self.decode(try Self.bytes("hopper.gif")).channels == 3)
        #expect(try Self.decode(try Self.bytes("transparent.gif")).channels == 4)
    }

    @Test func truncatedFileKeepsTheRowsDecoded() throws {
        let whole = try Self.bytes("hopper.gif")
        let cut = Array(whole.prefix(whole.count / 2))
        #expect(try warning(cut, "40x40")
                == "GIF: Failed to read from given file: 56 of the first frame's 128 rows decoded, the rest left transparent")
        #expect(try warning(whole, "40x40") == nil)
        let image = try Self.decode(cut)
        let expected = try Self.expected("hopper.gif")
        #expect(image.width == 128 && image.height == 128 && image.channels == 4)
        for x in 0..<128 {
            #expect(image.pixel(x, 0) == expected.pixel(x, 0) + [255])  // decoded
            #expect(image.pixel(x, 127) == [0, 0, 0, 0])                 // never reached
        }
    }

    @Test func truncatedBeforeAnyRowFailsWithGiflibsReason() throws {
        let whole = try Self.bytes("hopper.gif")
        // Inside the global colour map.
        #expect(throws: ImageError("GIF: No screen descriptor detected")) {
            try Self.decode(Array(whole.prefix(100)))
        }
        // Right after the image descriptor (offset 840 is the LZW code size byte).
        #expect(throws: ImageError.self) { try Self.decode(Array(whole.prefix(840))) }
        #expect(throws: ImageError("GIF: Failed to read from given file before the first row")) {
            try Self.decode(Array(whole.prefix(900)))
        }
    }

    /// An extension whose first sub-block is the terminator (`21 FE 00`, an empty comment, as
    /// some writers emit) ends there: the record after it is read as the next record, not as
    /// the extension's data (which giflib's own DGifSlurp does: "Wrong record type detected").
    @Test func extensionsWithoutSubBlocksAreSkipped() throws {
        var gif = CraftedGIF(width: 2, height: 1, palette: [[10, 20, 30], [40, 50, 60]],
                             frames: [.init(x: 0, y: 0, width: 2, height: 1, indexes: [0, 1])])
        let transparentOne: [UInt8] = [0x21, 0xF9, 4, 1, 0, 0, 1, 0]  // GCE: index 1 is transparent
        gif.extensions = [[0x21, 0xFE, 0], [0x21, 0xFF, 0], transparentOne, [0x21, 0xFE, 0], [0x21, 0x01, 0]]
        let image = try Self.decode(gif.bytes)
        #expect(image.bytes == [10, 20, 30, 255, 0, 0, 0, 0])
    }

    /// GIF89a caps the LZW minimum code size at 8 and giflib refuses more ("Failed to read from
    /// given file"); Firefox, Pillow and libvips read sizes up to 11, their literals past 255
    /// cut to a byte, and so does the decoder. 12 leaves no room for a code: refused.
    @Test(arguments: [9, 10, 11])
    func minimumCodeSizesOverEightAreRead(size: Int) throws {
        let palette: [[UInt8]] = [[10, 20, 30], [40, 50, 60], [70, 80, 90]]
        // Literal 1 + 256 (a code only these sizes have) is read as index 1.
        let data = CraftedGIF.lzw([2, 1, 0, 257 & 0x1FF], minimumCodeSize: size)
        let gif = CraftedGIF(width: 4, height: 1, palette: palette, frames: [], rawFrames: [(4, 1, data)])
        let image = try Self.decode(gif.bytes)
        #expect(image.bytes == [70, 80, 90, 40, 50, 60, 10, 20, 30, 40, 50, 60])
        // Cut inside the data, 7 bytes into it: the first row's codes (40-48 bits) are there, the
        // second row's are not. The row decoded is kept, the rest is transparent.
        let rows = CraftedGIF.lzw([1, 2, 0, 1], minimumCodeSize: size)
        let whole = CraftedGIF(width: 2, height: 2, palette: palette, frames: [], rawFrames: [(2, 2, rows)]).bytes
        let dataStart = whole.count - 1 - rows.count
        let cut = Array(whole.prefix(dataStart + 2 + 7))
        #expect(try warning(cut, "2x2")
                == "GIF: the image data ends or breaks: 1 of the first frame's 2 rows decoded, the rest left transparent")
    }

    @Test func minimumCodeSizeOfTwelveIsRefused() {
        let gif = CraftedGIF(width: 1, height: 1, palette: [[0, 0, 0], [1, 1, 1]], frames: [],
                             rawFrames: [(1, 1, [12, 1, 0, 0])])
        #expect(throws: ImageError("GIF: Failed to read from given file")) { try Self.decode(gif.bytes) }
    }

    @Test func tenThousandFramesDecodeTheFirstOnly() throws {
        // Frame 1 paints (0,0) red; the next 9,999 paint (1,0) green; then the file breaks off.
        // Composited, (1,0) would be green; the first frame alone leaves it transparent.
        var frames = [CraftedGIF.Frame(x: 0, y: 0, width: 1, height: 1, indexes: [0])]
        frames += Array(repeating: CraftedGIF.Frame(x: 1, y: 0, width: 1, height: 1, indexes: [1]), count: 9_999)
        var bytes = CraftedGIF(width: 2, height: 1, palette: [[255, 0, 0], [0, 255, 0]], frames: frames).bytes
        bytes.removeLast(3)
        #expect(bytes.count > 100_000)
        let image = try Self.decode(bytes)
        #expect(image.width == 2 && image.height == 1 && image.channels == 4)
        #expect(image.pixel(0, 0) == [255, 0, 0, 255])
        #expect(image.pixel(1, 0) == [0, 0, 0, 0])
    }

    @Test func screenOverThePixelLimitFailsBeforeDecoding() {
        // Nothing after the screen descriptor: any attempt to read on would fail differently.
        let header = CraftedGIF(width: 65535, height: 65535, palette: [[0, 0, 0], [1, 1, 1]], frames: []).bytes
        #expect(throws: ImageError("image is 65535×65535, over the 100000000-pixel limit")) {
            try Self.decode(Array(header.prefix(19)))
        }
        let hopper = (try? Self.bytes("hopper.gif")) ?? []
        #expect(throws: ImageError("image is 128×128, over the 10000-pixel limit")) {
            try Self.decode(hopper, limits: DecodeLimits(maxPixels: 10_000))
        }
    }

    @Test func frameReachingPastTheScreenGrowsTheCanvasWithinTheLimit() throws {
        let far = CraftedGIF(width: 1, height: 1, palette: [[9, 9, 9], [7, 7, 7]],
                             frames: [.init(x: 60_000, y: 60_000, width: 2, height: 1, indexes: [1, 1])])
        #expect(throws: ImageError("GIF: image 60002x60001 is over the 1000000-pixel limit")) {
            try Self.decode(far.bytes, limits: DecodeLimits(maxPixels: 1_000_000))
        }
        let near = CraftedGIF(width: 2, height: 2, palette: [[9, 9, 9], [7, 7, 7]],
                              frames: [.init(x: 1, y: 1, width: 2, height: 1, indexes: [1, 0])])
        let image = try Self.decode(near.bytes)
        #expect(image.width == 3 && image.height == 2 && image.channels == 4)
        #expect(image.pixel(1, 1) == [7, 7, 7, 255] && image.pixel(2, 1) == [9, 9, 9, 255])
        #expect(image.pixel(0, 0) == [0, 0, 0, 0])
    }

    @Test func outOfRangeIndexesAreOpaqueBlack() throws {
        // A two-colour map, and pixels using indexes 1, 2 and 255.
        let gif = CraftedGIF(width: 3, height: 1, palette: [[10, 20, 30], [40, 50, 60]],
                             frames: [.init(x: 0, y: 0, width: 3, height: 1, indexes: [1, 2, 255])])
        let image = try Self.decode(gif.bytes)
        #expect(image.bytes == [40, 50, 60, 0, 0, 0, 0, 0, 0])
    }

    @Test func garbageFailsWithAReason() {
        #expect(throws: ImageError("GIF: No screen descriptor detected")) { try Self.decode(Array("GIF89a".utf8)) }
        var noise = Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0]
        noise += (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        #expect(throws: ImageError("GIF: Wrong record type detected")) { try Self.decode(noise) }
        let trailerOnly = CraftedGIF(width: 1, height: 1, palette: [[0, 0, 0], [1, 1, 1]], frames: []).bytes
        #expect(throws: ImageError("GIF: no image before the GIF trailer")) { try Self.decode(trailerOnly) }
    }

    @Test func extensionFloodBeforeTheImageIsRefused() {
        var gif = CraftedGIF(width: 1, height: 1, palette: [[0, 0, 0], [1, 1, 1]],
                             frames: [.init(x: 0, y: 0, width: 1, height: 1, indexes: [0])])
        gif.extensions = Array(repeating: [0x21, 0xFE, 1, 0x41, 0], count: 2_000)  // comments
        #expect(throws: ImageError("GIF: more than 1024 extension blocks before the first image")) {
            try Self.decode(gif.bytes)
        }
    }

    @Test func iccProfileExtensionIsHandedOver() throws {
        let profile = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        var gif = CraftedGIF(width: 1, height: 1, palette: [[0, 0, 0], [1, 1, 1]],
                             frames: [.init(x: 0, y: 0, width: 1, height: 1, indexes: [0])])
        gif.extensions = [[0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8) + CraftedGIF.subBlocks(profile)]
        let icc = try gif.bytes.withUnsafeBytes { buffer in
            let image = try GIFDecoding.decode(buffer, limits: .default)
            return Array(UnsafeBufferPointer(start: image.raw.icc, count: image.raw.icc_length))
        }
        #expect(icc == profile)
    }

    @Test func sniffsBothVersionsAndThumbnails() throws {
        #expect([UInt8]("GIF87a".utf8).withUnsafeBytes { ImageFormat.sniff($0) } == .gif)
        #expect([UInt8]("GIF89a".utf8).withUnsafeBytes { ImageFormat.sniff($0) } == .gif)
        #expect([UInt8]("GIF88a".utf8).withUnsafeBytes { ImageFormat.sniff($0) } == nil)
        let thumbnail = try thumbnail(try Self.bytes("hopper.gif"), "40x40")
        #expect(thumbnail.width == 40 && thumbnail.height == 40 && thumbnail.channels == 3)
        #expect(ImageFormat.named("gif")?.mimeType == "image/gif")
    }
}

/// A GIF89a written by hand: a global colour map, then each frame as an image descriptor and LZW
/// data that sends a clear code before every pixel (so codes stay 9 bits wide), then the trailer.
struct CraftedGIF {
    struct Frame {
        var x, y, width, height: Int
        var indexes: [UInt8]
    }

    var width: Int
    var height: Int
    /// Padded with black to a power of two (at least 2 entries).
    var palette: [[UInt8]]
    var frames: [Frame]
    /// Raw extension records written before the first frame.
    var extensions: [[UInt8]] = []
    /// Frames at (0, 0) whose image data (code size byte and sub-blocks) is given as it is.
    var rawFrames: [(width: Int, height: Int, data: [UInt8])] = []

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let chunk = data[start..<min(start + 255, data.count)]
            out.append(UInt8(chunk.count))
            out += chunk
            start += chunk.count
        }
        return out + [0]
    }

    /// LZW with minimum code size 8: clear (256), literal, …, end of information (257).
    static func lzw(_ indexes: [UInt8]) -> [UInt8] {
        lzw(indexes.map(Int.init), minimumCodeSize: 8)
    }

    /// LZW at any minimum code size: a clear code before every literal, so codes stay one bit
    /// wider than the size; literals may go up to the clear code.
    static func lzw(_ literals: [Int], minimumCodeSize size: Int) -> [UInt8] {
        let clear = 1 << size
        var codes: [Int] = []
        for literal in literals { codes += [clear, literal] }
        codes.append(clear + 1)
        var packed: [UInt8] = []
        var accumulator = 0, bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += size + 1
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        return [UInt8(size)] + subBlocks(packed)
    }

    var bytes: [UInt8] {
        var size = 1
        while 1 << size < max(2, palette.count) { size += 1 }
        var out = Array("GIF89a".utf8) + Self.le16(width) + Self.le16(height) + [0x80 | UInt8(size - 1), 0, 0]
        for i in 0..<(1 << size) { out += i < palette.count ? palette[i] : [0, 0, 0] }
        for record in extensions { out += record }
        // Each frame is encoded once per distinct content: 10,000 identical frames stay cheap.
        var encoded: [[UInt8]: [UInt8]] = [:]
        for frame in frames {
            out += [0x2C] + Self.le16(frame.x) + Self.le16(frame.y) + Self.le16(frame.width) + Self.le16(frame.height) + [0]
            if encoded[frame.indexes] == nil { encoded[frame.indexes] = Self.lzw(frame.indexes) }
            out += encoded[frame.indexes]!
        }
        for frame in rawFrames {
            out += [0x2C, 0, 0, 0, 0] + Self.le16(frame.width) + Self.le16(frame.height) + [0] + frame.data
        }
        return out + [0x3B]
    }
}
