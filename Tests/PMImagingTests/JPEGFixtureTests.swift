import Testing
@testable import PMImaging

@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct JPEGFixtureTests {
    // Decoded by libjpeg-turbo 2.1.5's 8-bit build: baseline, integer tables, arithmetic, progressive.
    static let libjpegTurboDecodable = ["testorig.jpg", "testimgint.jpg", "testimgari.jpg", "testimgp.jpg"]
        .map { "jpeg/libjpeg-turbo/\($0)" }
    // Pillow decodes these two by filling missing data; here one decodes with a warning, the other,
    // whose first scan is already damaged, is refused.
    static let damaged: Set = ["jpeg/jpeg-decoder-reftest/partial_progressive.jpg",
                               "jpeg/jpeg-decoder-reftest/progressive-missing-dc.jpg"]
    static let reftestDecodable = Fixtures.images(in: "jpeg/jpeg-decoder-reftest").filter { !damaged.contains($0) }
    static let pillowDecodable = Fixtures.images(in: "jpeg/pillow") { $0 != "truncated_jpeg.jpg" }

    @Test(arguments: libjpegTurboDecodable + reftestDecodable + pillowDecodable)
    func decodesTo40x40(path: String) throws {
        let result = try thumbnail(try Fixtures.bytes(path), "40x40")
        #expect(result.width == 40 && result.height == 40)
    }

    /// Cut off after its first scans: what those decoded is shown, as browsers show it, with a
    /// warning. Without its DC scan nothing decodes before the damage: refused.
    @Test func missingScansAreReportedOrRefused() throws {
        let partial = try Fixtures.bytes("jpeg/jpeg-decoder-reftest/partial_progressive.jpg")
        #expect(try warning(partial, "40x40")
                == "JPEG: Corrupt JPEG data: premature end of data segment (in scan 3; what the earlier scans decoded is kept)")
        let missingDC = try Fixtures.bytes("jpeg/jpeg-decoder-reftest/progressive-missing-dc.jpg")
        #expect(throws: ImageError("JPEG: Inconsistent progression sequence for component 0 coefficient 0 (before any row decoded)")) {
            try Thumbnailer.pngThumbnails(of: missingDC, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }

    @Test(arguments: ["monkey12.jpg", "testorig12.jpg"])
    func twelveBitIsACleanError(name: String) throws {
        let bytes = try Fixtures.bytes("jpeg/libjpeg-turbo/\(name)")
        #expect(throws: ImageError("JPEG: Unsupported JPEG data precision 12")) {
            try Thumbnailer.pngThumbnails(of: bytes, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }

    /// A truncated file gives what precedes the cut (libjpeg fills in the rest) and says where the
    /// damage starts; one cut before its first rows is refused.
    @Test func truncatedJPEGDecodesWhatItHasWithAWarning() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow/truncated_jpeg.jpg")
        let reported = try #require(try warning(bytes, "40x40"))
        #expect(reported.hasPrefix("JPEG: Premature end of JPEG file (in scan "), "\(reported)")
        // A good file cut short by a failed download.
        let good = try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        #expect(try warning(Array(good.prefix(good.count * 2 / 3)), "40x40")
                == "JPEG: Premature end of JPEG file (from row 80 of 149 on, filled in by the decoder)")
        #expect(throws: ImageError("JPEG: Premature end of JPEG file (before any row decoded)")) {
            try Thumbnailer.pngThumbnails(of: Array(good.prefix(700)), sizes: [ThumbnailSize(width: 40, height: 40)])
        }
        #expect(try warning(good, "40x40") == nil)
    }

    @Test func cmykIsConvertedNotInverted() throws {
        // pil_sample_cmyk shows red letters on black; an inverted conversion would give cyan on white.
        let result = try thumbnail(try Fixtures.bytes("jpeg/pillow/pil_sample_cmyk.jpg"), "40x40")
        var strongestRed = 0, dark = 0
        for y in 0..<40 {
            for x in 0..<40 {
                let p = result.pixel(x, y).map(Int.init)
                strongestRed = max(strongestRed, p[0] - max(p[1], p[2]))
                if p.allSatisfy({ $0 < 40 }) { dark += 1 }
            }
        }
        #expect(dark > 800)
        #expect(strongestRed > 100)
    }

    @Test func decodesAtTheDCTScaleTheTargetNeeds() throws {
        // testorig is 227×149: 3/8 is the smallest scale keeping the short side ≥ 40 (56 px).
        let bytes = try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let image = try bytes.withUnsafeBytes { buffer in
            let decoded = try JPEGDecoding.decode(buffer, covering: [ThumbnailSize(width: 40, height: 40)], limits: .default)
            return (decoded.width, decoded.height)
        }
        #expect(image == (86, 56))
    }

    @Test func pngWithJPEGExtensionIsSniffedByContent() throws {
        // mozilla-jpg-size-6x6.jpg is really a PNG.
        let bytes = try Fixtures.bytes("jpeg/jpeg-decoder-reftest/mozilla-jpg-size-6x6.jpg")
        #expect(bytes.withUnsafeBytes { ImageFormat.sniff($0) } == .png)
        #expect(try thumbnail(bytes, "40x40").width == 40)
    }
}
