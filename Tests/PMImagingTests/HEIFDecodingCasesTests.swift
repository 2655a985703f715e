import CodecShim
import Testing
@testable import PMImaging

/// The AVIF cases libheif 1.15 reads wrong or not at all (issue 24): an image sequence whose
/// brands it does not accept, the YCgCo-R matrices it does not know, and monochrome images whose
/// limited range it ignores. Each against the photo the files were made from
/// (Corpus.sourcePhoto), at thumbnail size.
@Suite struct HEIFDecodingCasesTests {
    /// Mean difference per sample (0...255) of a file's 48×32 thumbnail from the source photo's.
    static func difference(_ file: String, from reference: Pixels) throws -> Double {
        try thumbnail(try Corpus.bytes(file), "48x32").meanAbsoluteDifference(to: reference)
    }

    // MARK: Image sequences

    /// Brands avis, msf1, miaf, MA1B, iso8, as Netflix's sequences have them: libheif 1.15 refuses
    /// the file ("File does not include any supported brands") though its meta box carries the
    /// first frame as the primary item; read with its brand taken as mif1, that frame shows.
    @Test func sequenceWithOnlySequenceBrandsShowsItsFirstFrame() throws {
        let source = try Corpus.sourcePhoto().shrunk(to: 48, 32)
        let difference = try Self.difference("generated/kodim03-avis-only.avif", from: source)
        #expect(difference < 3, "\(difference)")  // encoded at quality 60
        let image = try thumbnail(try Corpus.bytes("generated/kodim03-avis-only.avif"), "192x128")
        #expect((image.width, image.height) == (192, 128))
    }

    /// A sequence without any meta box has no still image libheif 1.15 can read (tracks came
    /// with 1.20): refused, saying so.
    @Test func sequenceWithoutAStillImageIsRefusedSayingWhy() {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = 8 + payload.count
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let file = box("ftyp", Array("avis".utf8) + [0, 0, 0, 0] + Array("avismsf1iso8".utf8)) + box("moov", [])
        #expect(throws: ImageError("AVIF: an image sequence without a still image (no meta box): libheif 1.15 reads no tracks")) {
            try Thumbnailer.pngThumbnails(of: file, sizes: [ThumbnailSize(width: 40, height: 40)])
        }
    }

    // MARK: YCgCo-R

    /// Matrix 16 (YCgCo-Re) decoded as BT.601 YCbCr came out magenta and green (66/255 off).
    @Test func ycgcoReShowsItsSourceColours() throws {
        let source = try Corpus.sourcePhoto().shrunk(to: 48, 32)
        let difference = try Self.difference("generated/kodim03-ycgco-re.avif", from: source)
        #expect(difference < 2, "\(difference)")
    }

    /// H.273's lifting is exact: RGB through YCgCo-Re (2 bits more) or YCgCo-Ro (1 bit more) and
    /// back gives every value again.
    @Test(arguments: [(16, 10), (17, 9)])
    func ycgcoRRoundTripsEveryColour(matrix: Int, depth: Int) {
        var rgb: [UInt8] = []
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 17) {
                for b in [0, 1, 127, 128, 254, 255] { rgb += [UInt8(r), UInt8(g), UInt8(b)] }
            }
        }
        // As libheif hands the planes through when told the matrix is identity: R = Co, G = Y, B = Cg.
        let middle = 1 << (depth - 1)
        var planes: [UInt8] = []
        for i in stride(from: 0, to: rgb.count, by: 3) {
            let (r, g, b) = (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
            let co = r - b, t = b + (co >> 1), cg = g - t, y = t + (cg >> 1)
            for value in [co + middle, y, cg + middle] { planes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        }
        let count = rgb.count / 3
        var out = [UInt8](repeating: 0, count: rgb.count)
        pm_ycgco_r_to_rgb8(planes, planes.count, Int32(depth), Int32(matrix), 0, Int32(count), 1, &out)
        #expect(out == rgb)
    }

    // MARK: Monochrome

    /// 4:0:0 in limited range (16-235 at 8 bits) was shown as stored, greys up to 8/255 off and
    /// flat; 10-bit full range must not be stretched. Both give the source's luma within 1/255.
    @Test(arguments: ["generated/kodim03-grey-limited.avif", "generated/kodim03-grey-full-10bit.avif"])
    func monochromeShowsTheSourcesLuma(file: String) throws {
        let luma = try Corpus.sourcePhoto().luma.shrunk(to: 48, 32)
        let difference = try Self.difference(file, from: luma)
        #expect(difference <= 1, "\(file): \(difference)")
    }

    /// The range conversion itself, at each bit depth: limited range's black and white are
    /// 16 and 235 scaled to the depth; full range's are 0 and the largest value.
    @Test func monochromeRangeConversion() {
        func convert(_ samples: [UInt16], depth: Int, fullRange: Bool) -> [UInt8] {
            let bytes: [UInt8] = depth == 8 ? samples.map { UInt8($0) } : samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            var out = [UInt8](repeating: 0, count: samples.count * 3)
            bytes.withUnsafeBufferPointer { data in
                let plane = pm_plane(data: data.baseAddress, stride: bytes.count, depth: Int32(depth))
                pm_monochrome_to_rgb8(plane, nil, fullRange ? 1 : 0, Int32(samples.count), 1, &out)
            }
            return stride(from: 0, to: out.count, by: 3).map { out[$0] }
        }
        #expect(convert([0, 16, 126, 235, 255], depth: 8, fullRange: false) == [0, 0, 128, 255, 255])
        #expect(convert([0, 16, 126, 235, 255], depth: 8, fullRange: true) == [0, 16, 126, 235, 255])
        #expect(convert([64, 504, 940, 1023], depth: 10, fullRange: false) == [0, 128, 255, 255])
        #expect(convert([0, 512, 1023], depth: 10, fullRange: true) == [0, 128, 255])
        #expect(convert([256, 3760], depth: 12, fullRange: false) == [0, 255])
    }

    /// Link-U's fox (8-bit 4:0:0, limited range, a real encoder's file): its luma spans the full
    /// range once stretched, as libavif and Pillow show it.
    @Test func realMonochromeFileIsStretched() throws {
        let image = try thumbnail(try Corpus.bytes("av1-avif/fox.profile0.8bpc.yuv420.monochrome.avif"), "120x80")
        let greys = stride(from: 0, to: image.bytes.count, by: 3).map { image.bytes[$0] }
        // Stored 16...235: unstretched, nothing would come near black or white.
        #expect(greys.min()! < 10 && greys.max()! > 245, "\(greys.min()!)...\(greys.max()!)")
    }
}
