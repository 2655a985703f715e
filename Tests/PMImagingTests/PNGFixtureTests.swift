import Testing
import PMImaging

@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct PNGFixtureTests {
    static let validSuite = Fixtures.images(in: "pngsuite") { !$0.hasPrefix("x") }
    static let corruptSuite = Fixtures.images(in: "pngsuite") { $0.hasPrefix("x") }
    static let broken = Fixtures.images(in: "png-broken")
    /// Those whose damage comes after some rows, or is only an IDAT CRC (x_interlaced_chck.png,
    /// which Pillow decodes by ignoring its CRC, as browsers do): decoded with a warning.
    static let decodedInPart: Set = [
        "png-broken/pillow-broken_data_stream.png", "png-broken/pillow-truncated_end_chunk.png",
        "png-broken/pillow-truncated_image.png", "png-broken/x_consecutive_idat.png",
        "png-broken/x_interlaced_chck.png", "pngsuite/xcsn0g01.png",
    ]

    @Test func suiteIsComplete() {
        #expect(Self.validSuite.count == 161)  // 160 test images + the PngSuite logo
        #expect(Self.corruptSuite.count == 14)
        #expect(Self.broken.count == 12)
    }

    @Test(arguments: validSuite)
    func validImageGivesA40x40Thumbnail(path: String) throws {
        let result = try thumbnail(try Fixtures.bytes(path), "40x40")
        #expect(result.width == 40 && result.height == 40)
    }

    @Test(arguments: corruptSuite + broken)
    func corruptImageIsRefusedOrDecodedInPart(path: String) throws {
        let bytes = try Fixtures.bytes(path)
        if Self.decodedInPart.contains(path) {
            #expect(try warning(bytes, "40x40") != nil, "\(path)")
        } else {
            #expect(throws: ImageError.self) {
                try Thumbnailer.pngThumbnails(of: bytes, sizes: [ThumbnailSize(width: 40, height: 40)])
            }
        }
    }

    @Test func messagesNameTheProblem() throws {
        let crc = try Fixtures.bytes("pngsuite/xcsn0g01.png")
        #expect(try warning(crc, "40x40") == "PNG: IDAT: CRC error (its data was used)")
        let truncated = try Fixtures.bytes("png-broken/pillow-truncated_image.png")
        #expect(try warning(truncated, "40x40")
                == "PNG: unexpected end of PNG data: 385 of 480 rows decoded, the rest left transparent")
        #expect(try thumbnail(truncated, "40x40").channels == 4)
        // IHDR's CRC stays an error: what it says decides how every row reads.
        let header = try Fixtures.bytes("pngsuite/xhdn0g08.png")
        #expect(throws: ImageError("PNG: IHDR: CRC error")) {
            try Thumbnailer.pngThumbnails(of: header, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }

    @Test func transparencyAndSixteenBitSurvive() throws {
        // basn6a16: 16-bit RGBA with a transparent region; tbrn2c08: RGB with a tRNS colour key.
        #expect(try thumbnail(try Fixtures.bytes("pngsuite/basn6a16.png"), "40x40").channels == 4)
        #expect(try thumbnail(try Fixtures.bytes("pngsuite/tbrn2c08.png"), "40x40").channels == 4)
        #expect(try thumbnail(try Fixtures.bytes("pngsuite/basn2c16.png"), "40x40").channels == 3)
    }

    @Test func interlacedMatchesNonInterlaced() throws {
        let plain = try thumbnail(try Fixtures.bytes("pngsuite/basn2c08.png"), "40x40")
        let interlaced = try thumbnail(try Fixtures.bytes("pngsuite/basi2c08.png"), "40x40")
        #expect(plain == interlaced)
    }
}
