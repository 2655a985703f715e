import Foundation
import Testing
import CodecShim
@testable import PMImaging

/// Colour management: every profile is converted to sRGB before resampling, compared with Pillow
/// + ImageCms conversions made by Fixtures/color/make_references.py (see PROVENANCE.md there).
/// Both sides go through photomirror's own resampler, so only the colour conversion is compared.
@Suite struct ColorManagementTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/color")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The thumbnail of Pillow + ImageCms's full-size sRGB conversion (untagged, upright). JPEGs
    /// are compared at a size near their own, where libjpeg decodes at full scale as Pillow does:
    /// a DCT-scaled decode averages before the conversion, which is not what is measured here.
    static func reference(_ name: String, size: String = "40x40") throws -> Pixels {
        try thumbnail(bytes("converted-\(name).png"), size)
    }

    /// Mean absolute difference of premultiplied colour and of alpha, per sample (0...255), so
    /// that the colour of fully transparent pixels, which no one sees, does not count.
    static func difference(_ a: Pixels, _ b: Pixels) -> Double {
        #expect(a.width == b.width && a.height == b.height)
        var total = 0.0, samples = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x, y), q = b.pixel(x, y)
                let alphaP = a.channels == 4 ? Double(p[3]) : 255, alphaQ = b.channels == 4 ? Double(q[3]) : 255
                for c in 0..<3 { total += abs(Double(p[c]) * alphaP / 255 - Double(q[c]) * alphaQ / 255) }
                total += abs(alphaP - alphaQ)
                samples += 4
            }
        }
        return total / Double(samples)
    }

    /// A JPEG with its APP2 ICC_PROFILE segment(s) replaced by one carrying `profile` (after SOI).
    static func jpeg(_ jpeg: [UInt8], withProfile profile: [UInt8]) -> [UInt8] {
        var segment: [UInt8] = Array("ICC_PROFILE\0".utf8) + [1, 1] + profile
        let length = segment.count + 2
        segment = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + segment
        return Array(jpeg.prefix(2)) + segment + jpeg.dropFirst(2)
    }

    // MARK: Conversions against Pillow + ImageCms

    @Test(arguments: [("hopper-p3.jpg", "hopper-p3", "120x120"), ("hopper-adobergb.jpg", "hopper-adobergb", "120x120"),
                      ("ring-p3.png", "ring-p3", "40x40"), ("xmp_tags_orientation.png", "xmp_tags_orientation", "40x40")])
    func taggedImagesMatchImageCms(file: String, reference: String, size: String) throws {
        let ours = try thumbnail(Self.bytes(file), size)
        let expected = try Self.reference(reference, size: size)
        let difference = Self.difference(ours, expected)
        #expect(difference <= 3, "\(file): \(difference)/255 from Pillow + ImageCms")
    }

    /// The comparison discriminates: shown as stored, the tagged images are visibly off (ColorMatch
    /// RGB has gamma 1.8; hopper is a portrait of muted colours, so P3 moves it less).
    @Test func conversionIsVisible() throws {
        let png = try Self.bytes("xmp_tags_orientation.png")
        let untaggedPNG = try RegressionsTests.keepingOnly(["IHDR", "iTXt", "IDAT", "IEND"], of: png)
        let pngDifference = Self.difference(try thumbnail(untaggedPNG, "40x40"), try Self.reference("xmp_tags_orientation"))
        #expect(pngDifference > 8, "untagged ColorMatch image is only \(pngDifference)/255 off")
        let untagged = try Self.withoutICC(Self.bytes("hopper-p3.jpg"))
        let difference = Self.difference(try thumbnail(untagged, "120x120"), try Self.reference("hopper-p3", size: "120x120"))
        #expect(difference > 1.5, "untagged Display P3 hopper is only \(difference)/255 off")
    }

    /// Alpha is carried through the conversion untouched.
    @Test func alphaIsUntouched() throws {
        let ring = try Self.bytes("ring-p3.png")
        let untagged = try RegressionsTests.keepingOnly(["IHDR", "IDAT", "IEND"], of: ring)
        let tagged = try thumbnail(ring, "40x40"), plain = try thumbnail(untagged, "40x40")
        #expect(tagged.channels == 4)
        for y in 0..<40 { for x in 0..<40 { #expect(tagged.pixel(x, y)[3] == plain.pixel(x, y)[3]) } }
    }

    /// CMYK without a profile goes through the built-in one (Ghostscript's default_cmyk.icc);
    /// with one, through that.
    @Test(.enabled(if: Fixtures.available && FileManager.default.fileExists(atPath: "/usr/share/color/icc/ghostscript/ps_cmyk.icc"),
                   "needs ../shared/fixtures and libgs-common (Scripts/setup)"),
          arguments: [("jpeg/pillow/pil_sample_cmyk.jpg", "pil_sample_cmyk", "96x96"),
                      ("jpeg/jpeg-decoder-reftest/mozilla-jpg-cmyk-2.jpg", "mozilla-jpg-cmyk-2", "250x250")])
    func cmykMatchesImageCms(path: String, reference: String, size: String) throws {
        let bytes = try Fixtures.bytes(path)
        let builtIn = Self.difference(try thumbnail(bytes, size), try Self.reference(reference, size: size))
        #expect(builtIn <= 3, "\(path) through the built-in profile: \(builtIn)/255")
        let profile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/ps_cmyk.icc")))
        let tagged = Self.jpeg(bytes, withProfile: profile)
        let embedded = Self.difference(try thumbnail(tagged, size), try Self.reference("\(reference)-ps_cmyk", size: size))
        #expect(embedded <= 3, "\(path) through its embedded profile: \(embedded)/255")
    }

    /// gAMA without iCCP or sRGB is honoured (PngSuite's gamma files: 0.35, 1.0, 2.5).
    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason), arguments: ["g03n2c08", "g10n2c08", "g25n2c08"])
    func gammaIsHonoured(name: String) throws {
        let ours = try thumbnail(Fixtures.bytes("pngsuite/\(name).png"), "40x40")
        let difference = Self.difference(ours, try Self.reference(name))
        #expect(difference <= 3, "\(name): \(difference)/255")
    }

    /// A grey tRNS key is matched at the file's own bit depth (4-bit 15, 16-bit 65535), and the
    /// gAMA conversion of the expanded grey leaves it neutral and leaves alpha alone. Pillow gets
    /// both keys wrong (see grey_key_alpha in Scripts/image_conformance.py), so the counts here
    /// are of the stored samples equal to the key, counted from the files' raw samples.
    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason),
          arguments: [("tbbn0g04", 464), ("tbwn0g16", 453)])
    func greyColourKeySurvivesGamma(name: String, transparent: Int) throws {
        let bytes = try Fixtures.bytes("pngsuite/\(name).png")
        let image = try bytes.withUnsafeBytes { try PNGDecoding.decode($0, limits: .default) }
        #expect(image.channels == 4 && image.raw.icc != nil)  // gAMA 1.0 became a profile
        func pixels() -> [UInt8] {
            Array(UnsafeBufferPointer(start: image.raw.data, count: image.width * image.height * 4))
        }
        let stored = pixels()
        #expect(ColorManagement.convertToSRGB(image))
        let converted = pixels()
        var cleared = 0, alphaChanged = 0, tinted = 0
        for at in stride(from: 0, to: converted.count, by: 4) {
            let red = converted[at], green = converted[at + 1], blue = converted[at + 2], alpha = converted[at + 3]
            if alpha == 0 { cleared += 1 }
            if alpha != stored[at + 3] { alphaChanged += 1 }
            if red != green || green != blue { tinted += 1 }
        }
        #expect(cleared == transparent)
        #expect(alphaChanged == 0)
        #expect(tinted == 0)
        #expect(converted != stored)  // linear light, re-encoded: the greys did move
    }

    /// cHRM changes the primaries: PngSuite's ccwn2c08 (gAMA 1/2.2, sRGB's cHRM: shown as stored)
    /// with Adobe RGB's green instead.
    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func chromaticitiesAreHonoured() throws {
        let bytes = try Fixtures.bytes("pngsuite/ccwn2c08.png")
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("cHRM".utf8)) })
        var wide = bytes
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { wide[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
        }
        put(21000, at: start + 4 + 16)  // green x
        put(71000, at: start + 4 + 20)  // green y
        put(Self.crc32(wide[start..<start + 4 + 32]), at: start + 4 + 32)
        #expect(try thumbnail(wide, "40x40") != thumbnail(bytes, "40x40"))
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: The fast path

    /// sRGB-tagged files (an sRGB IEC61966-2.1 iCCP, an APP2 sRGB profile, gAMA 1/2.2 with sRGB's
    /// cHRM) thumbnail exactly like their untagged copies.
    @Test func srgbTaggedIsUnchanged() throws {
        let png = try Self.bytes("icc_profile.png")
        #expect(try thumbnail(png, "40x40") == thumbnail(RegressionsTests.keepingOnly(["IHDR", "IDAT", "IEND"], of: png), "40x40"))
        let exiftool = try Self.bytes("xmp_tags_orientation_exiftool.png")
        #expect(try thumbnail(exiftool, "40x40")
                    == thumbnail(RegressionsTests.keepingOnly(["IHDR", "iTXt", "IDAT", "IEND"], of: exiftool), "40x40"))
    }

    @Test func srgbProfileIsRecognisedWithoutLittleCMS() throws {
        let flower = try Self.bytes("flower2.jpg")
        // flower2.jpg's APP2 carries the 3144-byte HP sRGB IEC61966-2.1 profile.
        let start = try #require(flower.indices.first { flower[$0...].starts(with: Array("ICC_PROFILE\0".utf8)) }) + 14
        let profile = Array(flower[start..<start + 3144])
        #expect(pm_color_profile_is_srgb(profile, profile.count) == 1)
        let p3 = try Self.bytes("DisplayP3-test.icc"), adobe = try Self.bytes("compatibleWithAdobeRGB1998.icc")
        #expect(pm_color_profile_is_srgb(p3, p3.count) == 0)
        #expect(pm_color_profile_is_srgb(adobe, adobe.count) == 0)
    }

    @Test func untaggedAndSRGBTaggedAreNotConverted() throws {
        for file in ["icc_profile_none.png", "icc_profile.png", "flower2.jpg"] {
            let bytes = try Self.bytes(file)
            let image = try bytes.withUnsafeBytes { buffer in
                try ImageFormat.sniff(buffer)!.decoder(buffer, [ThumbnailSize(width: 40, height: 40)], .default)
            }
            #expect(!ColorManagement.convertToSRGB(image), "\(file)")
        }
    }

    // MARK: Broken profiles

    /// Truncated, garbage and foreign-colour-space profiles leave the pixels as stored.
    @Test func brokenProfilesFallBackToTheStoredPixels() throws {
        let hopper = try Self.bytes("hopper-adobergb.jpg")
        let adobe = try Self.bytes("compatibleWithAdobeRGB1998.icc")
        var garbage = Array(adobe.prefix(132))
        garbage += [UInt8](repeating: 0xA5, count: 400)  // a tag table of nonsense
        var zeroTags = adobe
        for i in 132..<zeroTags.count { zeroTags[i] = 0 }
        let cases: [[UInt8]] = [Array(adobe.prefix(200)), garbage, zeroTags, Array(repeating: 0xFF, count: 4000),
                                Array(adobe.prefix(131))]
        let stripped = Self.jpeg(try Self.withoutICC(hopper), withProfile: [])
        let untagged = try thumbnail(stripped, "40x40")
        for profile in cases {
            let bytes = Self.jpeg(try Self.withoutICC(hopper), withProfile: profile)
            #expect(try thumbnail(bytes, "40x40") == untagged)
        }
    }

    /// The C entry point reports a broken profile and leaves the pixels alone.
    @Test func brokenProfileIsReportedAndPixelsKept() throws {
        let adobe = try Self.bytes("compatibleWithAdobeRGB1998.icc")
        var truncated = Array(adobe.prefix(300))
        truncated.withUnsafeMutableBufferPointer { profile in
            var pixels: [UInt8] = [10, 200, 30, 40, 50, 60]
            pixels.withUnsafeMutableBufferPointer { data in
                var image = pm_image()
                image.data = data.baseAddress
                image.width = 2
                image.height = 1
                image.channels = 3
                image.icc = profile.baseAddress
                image.icc_length = profile.count
                let message = CodecMessage()
                #expect(pm_color_convert_to_srgb(&image, message.pointer) == -1)
                #expect(String(cString: message.pointer).hasPrefix("ICC profile"))
            }
            #expect(pixels == [10, 200, 30, 40, 50, 60])
        }
    }

    /// The JPEG without its APP2 segments.
    static func withoutICC(_ jpeg: [UInt8]) throws -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if jpeg[at + 1] != 0xE2 { out += jpeg[at..<at + 2 + length] }
            at += 2 + length
        }
        return out + jpeg[at...]
    }

    // MARK: Orientation

    /// PNG eXIf (a bare TIFF structure, no "Exif\0\0") is applied like JPEG's EXIF.
    @Test func pngExifOrientationIsApplied() throws {
        let ours = try thumbnail(Self.bytes("exif-orientation-6.png"), "40x40")
        let difference = Self.difference(ours, try Self.reference("exif-orientation-6"))
        #expect(difference <= 3, "\(difference)/255")
    }

    /// XMP tiff:Orientation in a PNG iTXt, as exiftool writes it (element form) and as Pillow's
    /// fixture has it.
    @Test func pngXmpOrientationIsApplied() throws {
        let bytes = try Self.bytes("xmp_tags_orientation_exiftool.png")
        let rotated = try thumbnail(bytes, "40x40")
        let plain = try thumbnail(RegressionsTests.keepingOnly(["IHDR", "IDAT", "IEND"], of: bytes), "40x40")
        let upsideDown = Pixels(width: 40, height: 40, channels: plain.channels,
                                bytes: (0..<1600).reversed().flatMap { plain.pixel($0 % 40, $0 / 40) })
        #expect(rotated == upsideDown)
    }

    @Test func xmpOrientationForms() {
        func read(_ text: String) -> ExifOrientation? {
            Array(text.utf8).withUnsafeBytes { ExifOrientation.read(fromXMP: $0) }
        }
        #expect(read(#"<rdf:Description tiff:Orientation="6" />"#) == .rotate90Clockwise)
        #expect(read("<rdf:Description\n  tiff:Orientation = '8'/>") == .rotate90CounterClockwise)
        #expect(read("<tiff:Orientation>3</tiff:Orientation>") == .rotate180)
        #expect(read("<tiff:Orientation> 2 </tiff:Orientation>") == .mirrorHorizontal)
        #expect(read(#"tiff:Orientation="9""#) == nil)
        #expect(read(#"tiff:Orientation="16""#) == nil)
        #expect(read(#"xtiff:Orientation="6""#) == nil)
        #expect(read(#"<tiff:OrientationX>6</tiff:OrientationX>"#) == nil)
        #expect(read("<x:xmpmeta/>") == nil)
        #expect(read("tiff:Orientation") == nil)
        #expect(read("") == nil)
    }

    /// JPEG XMP orientation applies when there is no EXIF orientation; EXIF wins when both are there.
    @Test func jpegXmpOrientation() throws {
        let hopper = try Self.bytes("hopper-adobergb.jpg")
        let packet = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description tiff:Orientation=\"3\"/></x:xmpmeta>".utf8)
        let segment = [0xFF, 0xE1, UInt8((packet.count + 2) >> 8), UInt8((packet.count + 2) & 0xFF)] + packet
        let withXMP = Array(hopper.prefix(2)) + segment + hopper.dropFirst(2)
        let plain = try thumbnail(hopper, "40x40"), rotated = try thumbnail(withXMP, "40x40")
        let upsideDown = Pixels(width: 40, height: 40, channels: 3,
                                bytes: (0..<1600).reversed().flatMap { plain.pixel($0 % 40, $0 / 40) })
        #expect(rotated == upsideDown)
        // EXIF orientation 1 (little-endian TIFF, one IFD entry) is an orientation: XMP is ignored.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        let exif = Array("Exif\0\0".utf8) + tiff
        let exifSegment = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        let both = Array(hopper.prefix(2)) + exifSegment + segment + hopper.dropFirst(2)
        #expect(try thumbnail(both, "40x40") == plain)
    }
}
