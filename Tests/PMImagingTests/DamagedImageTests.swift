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
