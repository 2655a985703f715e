import Foundation
import Testing
import PMImaging

@Suite struct DecodeLimitTests {
    private let size = [ThumbnailSize(width: 40, height: 40)]

    /// PNG signature, an IHDR claiming the given size (valid CRC), an empty IDAT and IEND.
    private func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", []) + chunk("IEND", [])
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The limit's own message proves the refusal came from the header check, before any pixel
    /// memory was allocated (speed is the benchmark's business, not a test's).
    private func failsFast(_ bytes: [UInt8], limits: DecodeLimits = .default, with expected: ImageError) {
        #expect(throws: expected) { try Thumbnailer.pngThumbnails(of: bytes, sizes: size, limits: limits) }
    }

    @Test func pngClaiming60000SquareFailsBeforeAllocating() {
        failsFast(pngHeader(width: 60000, height: 60000),
                  with: ImageError("image is 60000×60000, over the 100000000-pixel limit"))
    }

    @Test func pngOverLibpngSideLimitFails() {
        // 2^31-1 wide: libpng itself refuses it while reading IHDR.
        #expect(throws: ImageError.self) {
            try Thumbnailer.pngThumbnails(of: pngHeader(width: 0x7FFF_FFFF, height: 1), sizes: size)
        }
    }

    @Test func customLimitApplies() {
        failsFast(pngHeader(width: 200, height: 100), limits: DecodeLimits(maxPixels: 19_999),
                  with: ImageError("image is 200×100, over the 19999-pixel limit"))
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func jpegOverTheLimitFailsBeforeDecoding() throws {
        // testorig.jpg with its SOF0 patched to declare 20000×20000 (400 megapixels).
        var bytes = try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [0x4E, 0x20, 0x4E, 0x20])
        failsFast(bytes, with: ImageError("image is 20000×20000, over the 100000000-pixel limit"))
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func progressiveJPEGRespectsTheDecoderMemoryCap() throws {
        let tight = DecodeLimits(maxDecoderMemory: 10_000)
        failsFast(try Fixtures.bytes("jpeg/libjpeg-turbo/testimgp.jpg"), limits: tight,
                  with: ImageError("JPEG: multi-scan image needs more than the 10000-byte decoder memory limit"))
        // Baseline files stream through small buffers, so the same cap does not affect them.
        #expect(try thumbnail(try Fixtures.bytes("jpeg/libjpeg-turbo/testorig.jpg"), "40x40", limits: tight).width == 40)
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func jpegBomb65535SquareFailsFast() throws {
        // libjpeg refuses sides over 65500 while reading the header, before our own check.
        failsFast(try Fixtures.bytes("jpeg/jpeg-decoder-crashtest/max_size.jpg"),
                  with: ImageError("JPEG: Maximum supported image dimension is 65500 pixels"))
    }
}
