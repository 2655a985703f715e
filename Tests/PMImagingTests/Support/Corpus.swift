import Foundation
import Testing
@testable import PMImaging

/// The conformance corpus, Tests/Fixtures/Images (PROVENANCE.md in each folder): files there are
/// also what Scripts/image_conformance.py and the integration tests read.
enum Corpus {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PMImagingTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/Images")

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The pixels of generated/kodim03-idat-crc.png with its IDAT's CRC made right again: the
    /// photo the generated cases were made from (192×128), losslessly.
    static func sourcePhoto() throws -> Pixels {
        var png = try bytes("generated/kodim03-idat-crc.png")
        let idat = try #require((8..<png.count - 4).first { png[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        let length = Int(png[idat - 4]) << 24 | Int(png[idat - 3]) << 16 | Int(png[idat - 2]) << 8 | Int(png[idat - 1])
        let crc = ColorManagementTests.crc32(png[idat..<idat + 4 + length])
        for i in 0..<4 { png[idat + 4 + length + i] = UInt8(crc >> (24 - 8 * UInt32(i)) & 0xFF) }
        #expect(try warning(png, "40x40") == nil)
        return try Pixels(png: png)
    }
}

extension Pixels {
    /// The area average of the whole image at `width`×`height` (same aspect), as the thumbnailer
    /// makes it of an opaque image: the reference for a thumbnail of the same pixels.
    func shrunk(to width: Int, _ height: Int) throws -> Pixels {
        try thumbnail(try pngBytes(width: self.width, height: self.height, channels: channels, bytes), "\(width)x\(height)")
    }

    /// Each pixel's luma as Pillow's `convert("L")` computes it (ITU-R 601-2, 16-bit fixed point),
    /// as grey RGB.
    var luma: Pixels {
        var grey: [UInt8] = []
        grey.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y).map(Int.init)
                let l = UInt8((p[0] * 19595 + p[1] * 38470 + p[2] * 7471 + 0x8000) >> 16)
                grey += [l, l, l]
            }
        }
        return Pixels(width: width, height: height, channels: 3, bytes: grey)
    }
}
