import Testing
@testable import PMImaging

/// Damaged JPEGs and PNGs of which browsers, Pillow and ImageIO show what decodes (issue 24), on
/// the generated files of the corpus (generated/make_decoding_cases.py), against the photo they
/// were made from: the rows before the damage as they are, a warning saying what and where, and
/// a refusal when nothing decodes before it.
@Suite struct DamagedImageTests {
    static func rows(_ image: Pixels, _ range: Range<Int>) -> Pixels {
        let stride = image.width * image.channels
        return Pixels(width: image.width, height: range.count, channels: image.channels,
                      bytes: Array(image.bytes[range.lowerBound * stride..<range.upperBound * stride]))
    }

    // MARK: Damaged JPEGs

    /// Damage partway through a scan: the rows before it decode as they are, libjpeg fills in
    /// the rest (as browsers, Pillow and ImageIO show such files), and the warning says what and
    /// from where.
    @Test(arguments: [
        ("generated/kodim03-bad-huffman.jpg", "Corrupt JPEG data: bad Huffman code", 96),
        ("generated/kodim03-segment-cut.jpg", "Corrupt JPEG data: premature end of data segment", 64),
        ("generated/kodim03-truncated.jpg", "Premature end of JPEG file", 64),
    ])
    func damagedJPEGShowsWhatDecodes(file: String, damage: String, row: Int) throws {
        let bytes = try Corpus.bytes(file)
        #expect(try warning(bytes, "40x40") == "JPEG: \(damage) (from row \(row) of 128 on, filled in by the decoder)")
        let ours = try thumbnail(bytes, "192x128")
        let source = try Corpus.sourcePhoto()
        let before = Self.rows(ours, 0..<row).meanAbsoluteDifference(to: Self.rows(source, 0..<row))
        #expect(before < 3, "\(file): rows before the damage differ by \(before)")
    }

    /// libjpeg-turbo 2.1 has no lossless mode: a SOF3 file is refused, and the message says why.
    @Test func losslessJPEGIsRefusedSayingWhy() {
        let sof3: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC3, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00,
                             0xFF, 0xD9]
        #expect(throws: ImageError("JPEG: lossless JPEG (SOF3) is not supported: libjpeg-turbo 2.1.5 has no lossless mode (it came with libjpeg-turbo 3.0)")) {
            try Thumbnailer.pngThumbnails(of: sof3, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }

    // MARK: Damaged PNGs

    /// A wrong CRC over intact IDAT data: every pixel as it is, with a warning.
    @Test func idatCRCErrorUsesTheData() throws {
        let bytes = try Corpus.bytes("generated/kodim03-idat-crc.png")
        #expect(try warning(bytes, "40x40") == "PNG: IDAT: CRC error (its data was used)")
        #expect(try thumbnail(bytes, "192x128") == (try Corpus.sourcePhoto()))
    }

    /// An error libpng raises from the last row's read, once the row is out (here: reading what
    /// follows the zlib stream), ends neither decode early: the thumbnailer's row-by-row decode
    /// keeps that row as the whole-image decode does (Fuzz/regressions/images/
    /// png-zlib-end-error-after-last-row-scaled.png; before, it refused the file). A 1×1
    /// palette image whose one colour is blue.
    @Test func errorAfterTheLastRowKeepsTheImage() throws {
        let bytes: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
            0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x01, 0x03, 0x00, 0x00, 0x00, 0x25, 0xDB, 0x56, 0xCA, 0x00, 0x00, 0x00,
            0x04, 0x67, 0x41, 0x4D, 0x41, 0x00, 0x01, 0x86, 0xA0, 0x31, 0xE9, 0x96, 0x5F, 0x00, 0x00, 0x00, 0x03, 0x73,
            0x42, 0x49, 0x54, 0x04, 0x04, 0x04, 0x77, 0xF8, 0xB5, 0xA3, 0x00, 0x00, 0x00, 0x03, 0x50, 0x4C, 0x54, 0x45,
            0x00, 0x00, 0xFF, 0x8A, 0x78, 0xD2, 0x57, 0x00, 0x00, 0x00, 0x08, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63,
            0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x48, 0xAF, 0xA4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
            0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        let said = try #require(try warning(bytes, "40x40"))
        #expect(said.hasSuffix("(after the last row: the image is whole)"), "\(said)")
        let ours = try thumbnail(bytes, "40x40")
        #expect(ours == Pixels(width: 40, height: 40, channels: 3, bytes: Array([[UInt8]](repeating: [0, 0, 255], count: 1600).joined())))
    }

    /// Deflate data broken half-way: the rows before it, the rest transparent. (The row where
    /// the bad bytes start, 64, decodes wrong before libpng can tell: a filter byte after it is
    /// what it finds invalid.)
    @Test func brokenIDATKeepsTheRowsBeforeIt() throws {
        let bytes = try Corpus.bytes("generated/kodim03-idat-broken.png")
        #expect(try warning(bytes, "40x40") == "PNG: bad adaptive filter value: 65 of 128 rows decoded, the rest left transparent")
        let ours = try thumbnail(bytes, "192x128")
        #expect(ours.channels == 4)
        let source = try Corpus.sourcePhoto()
        let kept = Self.rows(ours, 0..<64)
        #expect(kept.bytes == Self.rows(source, 0..<64).bytes.chunks(of: 3).flatMap { $0 + [255] })
        #expect(Self.rows(ours, 65..<128).bytes.allSatisfy { $0 == 0 })
    }

    /// A file with no row before the damage is still refused.
    @Test func damageBeforeTheFirstRowIsRefused() throws {
        var bytes = try Corpus.bytes("generated/kodim03-idat-crc.png")
        let idat = try #require((8..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        for i in idat + 6..<idat + 40 { bytes[i] = 0 }  // the zlib header intact, the first block gone
        #expect(throws: ImageError.self) {
            try Thumbnailer.pngThumbnails(of: bytes, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }
}

extension Array {
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
