import Testing
@testable import PMImaging

/// At DCT scale 1/8 libjpeg's inverse DCT reads only the DC coefficient of the luma blocks, so the
/// decoder leaves the progressive scans carrying luma AC coefficients unread (about two thirds of a
/// progressive photo's entropy-coded data). These tests pin down that this changes no pixel, and
/// that damage in the data it does need is still reported.
///
/// testimgp.jpg is the IJG progressive test image: the same DCT coefficients as the baseline
/// testimgint.jpg (both decode to identical pixels at every scale) in 10 scans, 4 of them luma AC.
@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct ProgressiveScanSkipTests {
    static let progressive = "jpeg/libjpeg-turbo/testimgp.jpg"  // 227×149, 4:2:0
    static let baseline = "jpeg/libjpeg-turbo/testimgint.jpg"

    // 227×149 at 1/8 is 29×19: these sizes decode at 1/8; 200x140 needs the full 8/8.
    static let eighthScaleSizes = ["8x8", "19x19", "29x19", "12x18", "18x12"]

    @Test(arguments: eighthScaleSizes)
    func skippingScansGivesTheBaselinePixels(size: String) throws {
        let progressive = try thumbnail(try Fixtures.bytes(Self.progressive), size)
        #expect(progressive == (try thumbnail(try Fixtures.bytes(Self.baseline), size)))
    }

    @Test func fullScaleStillDecodesEveryScan() throws {
        let progressive = try thumbnail(try Fixtures.bytes(Self.progressive), "200x140")
        #expect(progressive == (try thumbnail(try Fixtures.bytes(Self.baseline), "200x140")))
    }

    /// Garbage in a luma AC scan: unread at 1/8 (same pixels as the intact file, and no warning),
    /// reported wherever the scan is read.
    @Test func damageInAnUnreadScanOnlyMattersWhereItIsRead() throws {
        let intact = try Fixtures.bytes(Self.progressive)
        let damaged = try Self.stomping(scan: (component: 1, firstCoefficient: 6), of: intact)
        #expect(damaged != intact)
        #expect(try thumbnail(damaged, "8x8") == thumbnail(intact, "8x8"))
        #expect(try warning(damaged, "8x8") == nil)
        let reported = try #require(try warning(damaged, "200x140"))
        #expect(reported.hasPrefix("JPEG: Corrupt JPEG data"), "\(reported)")
    }

    /// A file cut short inside a scan that would be left out is still reported as cut: nothing is
    /// skipped unless the marker walk reaches EOI.
    @Test func truncationInsideAnUnreadScanIsStillReported() throws {
        let intact = try Fixtures.bytes(Self.progressive)
        let lastScan = try #require(Self.scans(of: intact).last)
        #expect(lastScan.component == 1 && lastScan.firstCoefficient > 0)
        let cut = Array(intact.prefix(lastScan.dataStart + 100))
        let reported = try #require(try warning(cut, "8x8"))
        #expect(reported.hasPrefix("JPEG: Premature end of JPEG file (in scan 10"), "\(reported)")
    }

    /// Chroma of a 4:2:0 file is decoded 2×2 per block at 1/8 and needs its AC coefficients:
    /// damage there is still reported at 1/8.
    @Test func chromaScansAreStillReadAtOneEighth() throws {
        let damaged = try Self.stomping(scan: (component: 2, firstCoefficient: 1), of: try Fixtures.bytes(Self.progressive))
        #expect(try warning(damaged, "8x8") != nil)
    }

    struct Scan {
        let component: Int          // first component id of the scan
        let firstCoefficient: Int   // Ss
        let dataStart: Int          // first byte of its entropy-coded data
        let dataEnd: Int            // the next marker
    }

    /// The scans of a JPEG, found by walking its markers.
    static func scans(of bytes: [UInt8]) throws -> [Scan] {
        var scans: [Scan] = []
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xD9 {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard bytes[at + 1] == 0xDA else {
                at += 2 + length
                continue
            }
            let count = Int(bytes[at + 4])
            let dataStart = at + 2 + length
            var end = dataStart
            while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
                end += 1
            }
            scans.append(Scan(component: Int(bytes[at + 5]), firstCoefficient: Int(bytes[at + 5 + 2 * count]),
                              dataStart: dataStart, dataEnd: end))
            at = end
        }
        try #require(!scans.isEmpty)
        return scans
    }

    /// The file with the entropy-coded data of the first matching scan overwritten by stuffed 0xFF
    /// bytes: all one-bits, which no Huffman table maps to a code.
    static func stomping(scan wanted: (component: Int, firstCoefficient: Int), of bytes: [UInt8]) throws -> [UInt8] {
        let scan = try #require(try scans(of: bytes).first {
            $0.component == wanted.component && $0.firstCoefficient == wanted.firstCoefficient
        })
        var damaged = bytes
        var at = scan.dataStart + 4
        while at + 1 < scan.dataEnd {
            damaged[at] = 0xFF
            damaged[at + 1] = 0x00
            at += 2
        }
        return damaged
    }
}
