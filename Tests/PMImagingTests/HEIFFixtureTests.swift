import CodecShim
import Foundation
import Testing
@testable import PMImaging

/// AVIF and HEIC through libheif, on the small real files in `Fixtures/heif` (PROVENANCE.md).
/// Reference pixels come from libheif's own `heif-convert` (Debian libheif-examples 1.15.1, the
/// libheif linked here) read by `Fixtures/heif/reference.py`; 10- and 12-bit references are the
/// high bytes of its 16-bit PNGs, hence the tolerance of 1.
@Suite struct HEIFFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/heif")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The full-size decode, as the thumbnailer receives it.
    static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) -> (DecodedImage, Pixels) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) -> DecodedImage in
                guard let format = ImageFormat.sniff(buffer) else { throw ImageError.notAnImage(startingWith: buffer) }
                return try format.decoder(buffer, [ThumbnailSize(width: 40, height: 40)], limits)
            }
        }
        let image = try result.get()
        let count = image.width * image.height * image.channels
        let pixels = Pixels(width: image.width, height: image.height, channels: image.channels,
                            bytes: Array(UnsafeBufferPointer(start: image.raw.data, count: count)))
        return (image, pixels)
    }

    static func sniff(_ bytes: [UInt8]) -> ImageFormat? { bytes.withUnsafeBytes { ImageFormat.sniff($0) } }

    struct Reference: Sendable, CustomTestStringConvertible {
        let file: String
        let format: String
        let width: Int
        let height: Int
        let channels: Int
        /// (x, y, samples) from reference.py: the centre, then a quarter in from each corner.
        let samples: [(Int, Int, [UInt8])]
        var testDescription: String { file }
    }

    static let references: [Reference] = [
        Reference(file: "rainbow-451x461.heic", format: "heic", width: 451, height: 461, channels: 3, samples: [
            (225, 230, [255, 247, 242]), (112, 115, [228, 163, 255]), (338, 115, [178, 239, 255]),
            (112, 345, [255, 177, 157]), (338, 345, [200, 255, 161])]),
        Reference(file: "hevc32.heif", format: "heic", width: 32, height: 32, channels: 3, samples: [
            (16, 16, [255, 253, 240]), (8, 8, [229, 173, 246]), (24, 8, [180, 247, 255]),
            (8, 24, [251, 180, 150]), (24, 24, [195, 255, 147])]),
        Reference(file: "with-alpha-512x512.heic", format: "heic", width: 512, height: 512, channels: 4, samples: [
            (256, 256, [255, 255, 255, 255]), (384, 128, [187, 49, 49, 255]), (128, 384, [187, 49, 49, 255])]),
        Reference(file: "avif32.heif", format: "avif", width: 32, height: 32, channels: 3, samples: [
            (16, 16, [252, 250, 237]), (8, 8, [232, 174, 250]), (24, 8, [176, 248, 245]),
            (8, 24, [253, 179, 152]), (24, 24, [193, 255, 144])]),
        Reference(file: "white_1x1.avif", format: "avif", width: 1, height: 1, channels: 3, samples: [
            (0, 0, [253, 253, 253])]),
        Reference(file: "paris_icc_exif_xmp.avif", format: "avif", width: 403, height: 302, channels: 3, samples: [
            (201, 151, [229, 191, 155]), (100, 75, [123, 149, 186]), (302, 75, [127, 177, 228]),
            (100, 226, [56, 54, 39]), (302, 226, [116, 109, 103])]),
        // irot 90° with an alpha image rotated alike: translucent white around opaque black letters.
        Reference(file: "abc_color_irot_alpha_irot.avif", format: "avif", width: 256, height: 512, channels: 4, samples: [
            (128, 256, [0, 0, 0, 255]), (64, 128, [255, 255, 255, 128]), (192, 384, [255, 255, 255, 128])]),
        // A 1×5 grid of 1024×154 tiles.
        Reference(file: "sofa_grid1x5_420.avif", format: "avif", width: 1024, height: 770, channels: 3, samples: [
            (512, 385, [151, 141, 149]), (256, 192, [252, 253, 255]), (768, 192, [189, 129, 33]),
            (256, 577, [53, 67, 96]), (768, 577, [84, 76, 65])]),
        // A grid colour image with a single (non-grid) alpha image.
        Reference(file: "color_grid_alpha_nogrid.avif", format: "avif", width: 80, height: 80, channels: 4, samples: [
            (40, 40, [255, 255, 255, 255]), (20, 20, [162, 211, 120, 255]), (60, 20, [247, 247, 127, 255]),
            (20, 60, [95, 176, 19, 255]), (60, 60, [79, 155, 5, 255])]),
        // 10-bit (BT.2020 PQ; 4:4:4 P3 PQ) and 12-bit: 8-bit out.
        Reference(file: "colors_hdr_rec2020.avif", format: "avif", width: 200, height: 200, channels: 3, samples: [
            (100, 100, [140, 134, 85]), (50, 50, [149, 106, 69]), (150, 50, [137, 156, 97]),
            (50, 150, [168, 167, 165]), (150, 150, [168, 170, 166])]),
        Reference(file: "cosmos1650_yuv444_10bpc_p3pq.avif", format: "avif", width: 1024, height: 428, channels: 3, samples: [
            (512, 214, [102, 74, 44]), (256, 107, [67, 71, 61]), (768, 107, [193, 175, 155]),
            (256, 321, [91, 99, 30]), (768, 321, [35, 41, 41])]),
        Reference(file: "weld_sato_12B_8B_q0.avif", format: "avif", width: 1024, height: 684, channels: 3, samples: [
            (512, 342, [102, 54, 24]), (256, 171, [1, 24, 53]), (768, 171, [21, 17, 5]),
            (256, 513, [9, 9, 9]), (768, 513, [0, 2, 0])]),
    ]

    @Test(arguments: references)
    func decodesLikeHeifConvert(reference: Reference) throws {
        let bytes = try Self.bytes(reference.file)
        #expect(Self.sniff(bytes)?.name == reference.format)
        let (image, pixels) = try Self.decode(bytes)
        #expect(image.orientation == .identity)
        #expect(pixels.width == reference.width && pixels.height == reference.height)
        #expect(pixels.channels == reference.channels)
        for (x, y, expected) in reference.samples {
            let actual = pixels.pixel(x, y)
            let close = zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
            #expect(close, "\(reference.file) at (\(x), \(y)): \(actual), heif-convert \(expected)")
        }
        // And the whole thumbnail path.
        let thumbnail = try thumbnail(bytes, "40x40")
        #expect(thumbnail.width == 40 && thumbnail.height == 40)
    }

    @Test func sniffsBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands + [0, 0, 0, 8] + Array("meta".utf8)
        }
        #expect(Self.sniff(ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(Self.sniff(ftyp("avis", ["msf1"])) == .avif)
        #expect(Self.sniff(ftyp("mif1", ["avif", "miaf"])) == .avif)   // generic HEIF naming AV1
        #expect(Self.sniff(ftyp("heic", ["mif1", "heic"])) == .heif)
        #expect(Self.sniff(ftyp("mif1", ["heic"])) == .heif)
        #expect(Self.sniff(ftyp("mif1", [])) == .heif)                 // generic HEIF alone
        #expect(Self.sniff(ftyp("heix", [])) == .heif)
        #expect(Self.sniff(ftyp("miaf", ["MiHE", "heic"])) == .heif)   // codec named only among the compatible
        #expect(Self.sniff(ftyp("isom", ["iso2", "mp41"])) == nil)     // MP4 video
        #expect(Self.sniff(ftyp("qt  ", [])) == nil)
        #expect(Self.sniff(Array(ftyp("avif", []).prefix(12))) == nil)  // too short for a major brand + version
        // A box size past the data, or too small, reads only what is there.
        var lying = ftyp("mif1", ["avif"])
        lying[3] = 0xFF
        #expect(Self.sniff(lying) == .avif)
        lying[3] = 4
        #expect(Self.sniff(lying) == .heif)
    }

    @Test func formatDescriptors() {
        #expect(ImageFormat.avif.fileExtension == "avif" && ImageFormat.avif.mimeType == "image/avif")
        #expect(ImageFormat.heif.name == "heic" && ImageFormat.heif.fileExtension == "heic")
        #expect(ImageFormat.heif.mimeType == "image/heic")
        #expect(ImageFormat.all.contains(.avif) && ImageFormat.all.contains(.heif))
        #expect(ImageFormat.named("heic") == .heif && ImageFormat.named("avif") == .avif)
    }

    @Test func alphaIsStraightAndKept() throws {
        let (_, heic) = try Self.decode(try Self.bytes("with-alpha-512x512.heic"))
        #expect(heic.channels == 4)
        let alphas = Set(stride(from: 3, to: heic.bytes.count, by: 4).map { heic.bytes[$0] })
        #expect(alphas.contains(0) && alphas.contains(255))
        // Opaque AVIF stays RGB; its alpha-carrying sibling comes out RGBA.
        #expect(try Self.decode(try Self.bytes("avif32.heif")).1.channels == 3)
        #expect(try Self.decode(try Self.bytes("abc_color_irot_alpha_irot.avif")).1.channels == 4)
    }

    // MARK: colour

    @Test func iccProfileIsCopied() throws {
        for name in ["rainbow-451x461.heic", "paris_icc_exif_xmp.avif"] {
            let (image, _) = try Self.decode(try Self.bytes(name))
            let icc = UnsafeRawBufferPointer(start: image.raw.icc, count: image.raw.icc_length)
            #expect(icc.count > 128, "\(name)")
            // An ICC header: the profile size first, "acsp" at 36.
            #expect(icc.count >= 40 && icc[0..<4].reduce(0) { $0 << 8 | Int($1) } == icc.count)
            #expect(icc.count >= 40 && Array(icc[36..<40]) == Array("acsp".utf8))
            #expect(image.raw.cicp_primaries == 0 && image.raw.cicp_transfer == 0)
        }
    }

    /// The code points as heif-info / libavif's README give them: BT.709/sRGB (1/13), BT.2020 PQ
    /// (9/16), Display P3 PQ (12/16), and "unspecified" (2/2) as the 12-bit file states it.
    @Test(arguments: [("avif32.heif", 1, 13), ("sofa_grid1x5_420.avif", 1, 13), ("colors_hdr_rec2020.avif", 9, 16),
                      ("cosmos1650_yuv444_10bpc_p3pq.avif", 12, 16), ("weld_sato_12B_8B_q0.avif", 2, 2),
                      ("hevc32.heif", 1, 13)])
    func nclxCodePointsAreGiven(file: String, primaries: Int, transfer: Int) throws {
        let (image, _) = try Self.decode(try Self.bytes(file))
        #expect(image.raw.icc == nil && image.raw.icc_length == 0)
        #expect(Int(image.raw.cicp_primaries) == primaries && Int(image.raw.cicp_transfer) == transfer)
    }

    // MARK: transforms

    /// The same file with its `irot` box renamed to a property libheif does not know: the stored,
    /// untransformed image, for comparing with what the transforms make of it.
    static func replacing(_ box: String, with other: String, in bytes: [UInt8]) throws -> [UInt8] {
        let needle = Array(box.utf8)
        var out = bytes
        let at = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == needle })
        out.replaceSubrange(at..<at + 4, with: Array(other.utf8))
        return out
    }

    @Test func irotIsApplied() throws {
        let original = try Self.bytes("abc_color_irot_alpha_irot.avif")  // irot angle 1: 90° anticlockwise
        let (rotatedImage, rotated) = try Self.decode(original)
        let (_, stored) = try Self.decode(try Self.replacing("irot", with: "xrot", in: original))
        #expect(stored.width == 512 && stored.height == 256)
        #expect(rotated.width == 256 && rotated.height == 512)
        #expect(rotatedImage.orientation == .identity)
        // 90° anticlockwise: stored (x, y) lands at (y, width - 1 - x).
        for (x, y) in [(0, 0), (100, 40), (511, 255), (300, 200), (256, 128)] {
            #expect(stored.pixel(x, y) == rotated.pixel(y, stored.width - 1 - x), "stored (\(x), \(y))")
        }
    }

    @Test func imirIsApplied() throws {
        // The irot box becomes an imir box of the same size; its byte 1 reads as axis 1, a mirror
        // about the horizontal axis (top and bottom exchanged).
        let original = try Self.bytes("abc_color_irot_alpha_irot.avif")
        let (_, mirrored) = try Self.decode(try Self.replacing("irot", with: "imir", in: original))
        let (_, stored) = try Self.decode(try Self.replacing("irot", with: "xrot", in: original))
        #expect(mirrored.width == stored.width && mirrored.height == stored.height)
        #expect(mirrored != stored)
        for (x, y) in [(0, 0), (100, 40), (511, 255), (300, 200), (256, 128)] {
            #expect(stored.pixel(x, y) == mirrored.pixel(x, stored.height - 1 - y), "stored (\(x), \(y))")
        }
    }

    // MARK: metadata orientation

    /// `bytes` with the first occurrence of `pattern` given `replacement` from its `offset`th byte.
    static func patching(_ pattern: [UInt8], at offset: Int = 0, with replacement: [UInt8], in bytes: [UInt8]) throws -> [UInt8] {
        let at = try #require((0...bytes.count - pattern.count).first { Array(bytes[$0..<$0 + pattern.count]) == pattern })
        var out = bytes
        out.replaceSubrange(at + offset..<at + offset + replacement.count, with: replacement)
        return out
    }

    /// The primary item's `pixi` property turned into an `irot` of `angle` (× 90° anticlockwise):
    /// irot's one byte is where pixi's version byte was, and libheif skips the rest of the box.
    static func withIrot(angle: UInt8, in bytes: [UInt8]) throws -> [UInt8] {
        try patching(Array("pixi".utf8) + [0], with: Array("irot".utf8) + [angle], in: bytes)
    }

    /// paris_icc_exif_xmp.avif's EXIF (little-endian TIFF) with Orientation, a SHORT of value 1, rewritten.
    static func paris(exifOrientation: UInt8) throws -> [UInt8] {
        let entry: [UInt8] = [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00]
        return try patching(entry, at: 8, with: [exifOrientation], in: try Self.bytes("paris_icc_exif_xmp.avif"))
    }

    /// Pillow's file has no transform property and no EXIF: its XMP `tiff:Orientation="3"` is
    /// the only orientation it gives, and the thumbnail is turned by it.
    @Test func xmpOrientationIsAppliedWithoutATransform() throws {
        let original = try Self.bytes("xmp_tags_orientation.avif")
        let (image, pixels) = try Self.decode(original)
        #expect(image.orientation == .rotate180)
        #expect(pixels.width == 326 && pixels.height == 268)  // stored as is: the thumbnailer turns it

        let upright = try Self.patching(Array("tiff:Orientation=\"3".utf8), with: Array("tiff:Orientation=\"1".utf8), in: original)
        #expect(try Self.decode(upright).0.orientation == .identity)
        let turned = try thumbnail(original, "40x24"), plain = try thumbnail(upright, "40x24")
        #expect(turned.width == 40 && turned.height == 24 && turned != plain)
        for (x, y) in [(0, 0), (5, 3), (39, 23), (20, 12), (31, 7)] {
            let close = zip(turned.pixel(x, y), plain.pixel(39 - x, 23 - y)).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
            #expect(close, "thumbnail (\(x), \(y))")
        }
    }

    @Test func exifOrientationIsAppliedWithoutATransform() throws {
        let (image, pixels) = try Self.decode(try Self.paris(exifOrientation: 6))
        #expect(image.orientation == .rotate90Clockwise)
        #expect(pixels.width == 403 && pixels.height == 302)
        let thumb = try thumbnail(try Self.paris(exifOrientation: 6), "40x30")
        #expect(thumb.width == 40 && thumb.height == 30)
    }

    /// As Apple's HEICs do: irot turns the image and EXIF says the same (8: 90° anticlockwise).
    /// libheif has applied the irot; the EXIF orientation must not turn it a second time.
    @Test func exifOrientationBesideIrotIsNotAppliedAgain() throws {
        let (_, stored) = try Self.decode(try Self.bytes("paris_icc_exif_xmp.avif"))
        let (image, rotated) = try Self.decode(try Self.withIrot(angle: 1, in: try Self.paris(exifOrientation: 8)))
        #expect(image.orientation == .identity)
        #expect(rotated.width == 302 && rotated.height == 403)
        for (x, y) in [(0, 0), (100, 40), (402, 301), (300, 200), (201, 151)] {
            #expect(stored.pixel(x, y) == rotated.pixel(y, stored.width - 1 - x), "stored (\(x), \(y))")
        }
        // A 0° irot is still a transform property: the file's orientation is its own, not EXIF's.
        let still = try Self.withIrot(angle: 0, in: try Self.paris(exifOrientation: 6))
        #expect(try Self.decode(still).0.orientation == .identity)
    }

    @Test func xmpOrientationBesideIrotIsNotApplied() throws {
        let bytes = try Self.withIrot(angle: 0, in: try Self.bytes("xmp_tags_orientation.avif"))
        let (image, pixels) = try Self.decode(bytes)
        #expect(image.orientation == .identity)
        #expect(pixels.width == 326 && pixels.height == 268)
    }

    /// libheif 1.15 mirrors only 8-bit images; this 10-bit clap+irot+imir file fails with its reason.
    @Test func highBitDepthMirrorFailsWithLibheifsReason() throws {
        let bytes = try Self.bytes("clap_irot_imir_non_essential.avif")
        #expect(throws: ImageError("AVIF: Unsupported feature: Unspecified: Can currently only mirror images with 8 bits per pixel")) {
            _ = try Self.decode(bytes)
        }
    }

    // MARK: limits and damage

    /// `sofa_grid1x5_420.avif` with its grid's ispe and/or grid data (output size) rewritten.
    static func sofa(ispe: (UInt32, UInt32)?, canvas: (UInt16, UInt16)?) throws -> [UInt8] {
        var bytes = try Self.bytes("sofa_grid1x5_420.avif")
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        if let (w, h) = ispe {  // the first ispe is the grid item's: 1024×770
            let at = try #require((0..<bytes.count - 16).first { Array(bytes[$0..<$0 + 4]) == Array("ispe".utf8) })
            #expect(Array(bytes[at + 8..<at + 16]) == be32(1024) + be32(770))
            bytes.replaceSubrange(at + 8..<at + 16, with: be32(w) + be32(h))
        }
        if let (w, h) = canvas {  // grid data: version 0, flags 0, 5 rows, 1 column, 1024×770
            let grid: [UInt8] = [0, 0, 4, 0, 0x04, 0x00, 0x03, 0x02]
            let at = try #require((0..<bytes.count - 8).first { Array(bytes[$0..<$0 + 8]) == grid })
            bytes.replaceSubrange(at + 4..<at + 8, with: [UInt8(w >> 8), UInt8(w & 255), UInt8(h >> 8), UInt8(h & 255)])
        }
        return bytes
    }

    @Test func gridOverThePixelLimitFailsBeforeDecoding() throws {
        let big = try Self.sofa(ispe: (20000, 20000), canvas: (20000, 20000))
        let peakBefore = RegressionsTests.peakResidentBytes()
        #expect(throws: ImageError("image is 20000×20000, over the 100000000-pixel limit")) { _ = try Self.decode(big) }
        // The unchanged file under a limit below its own size.
        #expect(throws: ImageError("image is 1024×770, over the 500000-pixel limit")) {
            _ = try Self.decode(try Self.bytes("sofa_grid1x5_420.avif"), limits: DecodeLimits(maxPixels: 500_000))
        }
        // Decoding the 20000×20000 canvas would take 1.6 GB.
        #expect(RegressionsTests.peakResidentBytes() - peakBefore < 64 << 20)
    }

    /// libheif 1.15 sizes a grid's canvas from the grid data and never compares it with the ispe:
    /// the shim reads the canvas from the boxes itself.
    @Test func gridCanvasLargerThanItsIspeFailsBeforeDecoding() throws {
        let lying = try Self.sofa(ispe: nil, canvas: (20000, 20000))
        #expect(throws: ImageError("image is 20000×20000, over the 100000000-pixel limit")) { _ = try Self.decode(lying) }
        #expect(throws: ImageError("image is 9000×3000, over the 10000000-pixel limit")) {
            _ = try Self.decode(try Self.sofa(ispe: nil, canvas: (9000, 3000)), limits: DecodeLimits(maxPixels: 10_000_000))
        }
    }

    @Test func gridClaiming100000SquareFailsFastAndSmall() throws {
        let huge = try Self.sofa(ispe: (100_000, 100_000), canvas: nil)
        let peakBefore = RegressionsTests.peakResidentBytes()
        #expect(throws: ImageError("AVIF: Memory allocation error: Security limit exceeded: Image size 100000x100000 exceeds the maximum image size 32768x32768")) {
            _ = try Self.decode(huge)
        }
        #expect(RegressionsTests.peakResidentBytes() - peakBefore < 64 << 20)
    }

    @Test func truncatedAndGarbageFailWithAReason() throws {
        let heic = try Self.bytes("rainbow-451x461.heic")
        for length in [24, 200, heic.count / 2] {
            do {
                _ = try Self.decode(Array(heic.prefix(length)))
                Issue.record("\(length) bytes decoded")
            } catch {
                #expect(error.message.hasPrefix("HEIC: ") && error.message.count > 6, "\(length): \(error.message)")
            }
        }
        var garbage = Array(heic.prefix(32))  // a valid ftyp, then noise
        var seed: UInt32 = 12345
        for _ in 0..<4000 {
            seed = seed &* 1_103_515_245 &+ 12345
            garbage.append(UInt8(seed >> 24))
        }
        #expect(throws: ImageError.self) { _ = try Self.decode(garbage) }
        do { _ = try Self.decode(garbage) } catch { #expect(error.message.hasPrefix("HEIC: ")) }
    }
}

/// A libheif without the codec plugin (no libde265-0 or libdav1d6) reports Unsupported_feature /
/// Unsupported_codec; Debian's libheif1 depends on both, so the mapping is tested on its own.
@Suite struct HEIFMissingDecoderTests {
    static func describe(code: Int32, subcode: Int32, text: String, av1: Bool) -> String {
        let message = CodecMessage()
        pm_heif_describe_error(code, subcode, text, av1 ? 1 : 0, message.pointer)
        return String(cString: message.pointer)
    }

    @Test func missingPluginIsNamed() {
        let unsupported: Int32 = 4, codec: Int32 = 3000  // heif_error_Unsupported_feature, heif_suberror_Unsupported_codec
        #expect(Self.describe(code: unsupported, subcode: codec, text: "Unsupported codec", av1: false)
                == "no HEVC decoder in this libheif (install libde265-0)")
        #expect(Self.describe(code: unsupported, subcode: codec, text: "", av1: true)
                == "no AV1 decoder in this libheif (install libdav1d6)")
        #expect(Self.describe(code: 1, subcode: 0, text: "Invalid input: No 'meta' box\n", av1: true)
                == "Invalid input: No 'meta' box")
        #expect(Self.describe(code: 1, subcode: 0, text: "", av1: false) == "unknown libheif error")
    }
}
