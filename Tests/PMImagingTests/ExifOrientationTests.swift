import Testing
@testable import PMImaging

@Suite struct ExifParsingTests {
    /// "Exif\0\0" + a TIFF header + IFD0 holding the given (tag, type, value) entries, each value
    /// stored as its type's integer (BYTE/SBYTE 1 byte, LONG/SLONG 4, others 2), left-aligned.
    private func exifPayload(bigEndian: Bool, entries: [(tag: Int, type: Int, value: Int)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        func field(_ type: Int, _ v: Int) -> [UInt8] {
            switch type {
            case 1, 6: [UInt8(v & 0xFF), 0, 0, 0]
            case 4, 9: u32(v)
            default: u16(v) + [0, 0]
            }
        }
        var bytes = Array("Exif\0\0".utf8) + (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]) + u32(8)
        bytes += u16(entries.count)
        for entry in entries {
            bytes += u16(entry.tag) + u16(entry.type) + u32(1) + field(entry.type, entry.value)
        }
        return bytes + u32(0)
    }

    private func read(_ payload: [UInt8]) -> ExifOrientation {
        payload.withUnsafeBytes { ExifOrientation.read(fromExif: $0) }
    }

    @Test(arguments: [false, true])
    func readsTheOrientationTagInBothByteOrders(bigEndian: Bool) {
        for value in 1...8 {
            let payload = exifPayload(bigEndian: bigEndian, entries: [(0x010F, 2, 0), (0x0112, 3, value)])
            #expect(read(payload).rawValue == value)
        }
    }

    /// EXIF says SHORT; writers also use LONG and SLONG (Pillow and libvips read them), and any
    /// TIFF integer type reads as the integer it is, in either byte order.
    @Test(arguments: [false, true])
    func readsTheTagStoredAsAnyIntegerType(bigEndian: Bool) {
        for type in [1, 3, 4, 6, 8, 9] {  // BYTE, SHORT, LONG, SBYTE, SSHORT, SLONG
            for value in 1...8 {
                let payload = exifPayload(bigEndian: bigEndian, entries: [(0x010F, 2, 0), (0x0112, type, value)])
                #expect(read(payload).rawValue == value, "type \(type), value \(value)")
            }
        }
        // A negative SLONG (or SSHORT) is no orientation.
        #expect(read(exifPayload(bigEndian: bigEndian, entries: [(0x0112, 9, -6)])) == .identity)
        #expect(read(exifPayload(bigEndian: bigEndian, entries: [(0x0112, 8, -6)])) == .identity)
    }

    @Test func treatsMissingOrMalformedDataAsIdentity() {
        let good = exifPayload(bigEndian: false, entries: [(0x0112, 3, 6)])
        #expect(read(good) == .rotate90Clockwise)
        #expect(read(exifPayload(bigEndian: false, entries: [(0x0112, 3, 0)])) == .identity)
        #expect(read(exifPayload(bigEndian: false, entries: [(0x0112, 3, 9)])) == .identity)
        #expect(read(exifPayload(bigEndian: false, entries: [(0x0112, 5, 6)])) == .identity)  // RATIONAL: no integer
        #expect(read(exifPayload(bigEndian: true, entries: [(0x0112, 2, 6)])) == .identity)   // ASCII
        #expect(read(exifPayload(bigEndian: true, entries: [(0x0110, 2, 6)])) == .identity)   // no tag 0x0112
        #expect(read(Array(good.prefix(good.count - 8))) == .identity)  // entry cut short
        #expect(read(Array(good.prefix(12))) == .identity)              // TIFF header cut short
        var wrongMagic = good
        wrongMagic[6] = 0x4D  // "MI"
        #expect(read(wrongMagic) == .identity)
        var farOffset = good
        farOffset[10] = 0xFF  // IFD0 offset far past the end
        #expect(read(farOffset) == .identity)
        #expect(read(Array("Exif\0\0".utf8)) == .identity)
        #expect(read([]) == .identity)
    }
}

@Suite struct ExifOrientationApplyTests {
    // Stored 3×2:   a b c
    //               d e f
    private let stored = PixelTile(pixels: Array("abcdef".utf8), width: 3, height: 2, channels: 1)

    @Test(arguments: [
        (ExifOrientation.identity, "abc/def"),
        (.mirrorHorizontal, "cba/fed"),
        (.rotate180, "fed/cba"),
        (.mirrorVertical, "def/abc"),
        (.transpose, "ad/be/cf"),
        (.rotate90Clockwise, "da/eb/fc"),
        (.transverse, "fc/eb/da"),
        (.rotate90CounterClockwise, "cf/be/ad"),
    ])
    func producesTheUprightLayout(orientation: ExifOrientation, expectedRows: String) {
        let rows = expectedRows.split(separator: "/")
        let upright = orientation.apply(to: stored)
        #expect(upright.width == rows[0].count && upright.height == rows.count)
        #expect(upright.pixels == Array(rows.joined().utf8))
    }
}
