import Foundation
import Testing
import PMImaging

/// Inputs the image fuzzers (`Scripts/fuzz jpeg png thumbnail`) found, kept in
/// `Fuzz/regressions/images/` (outside the test target, so SwiftPM does not ask for them to be
/// declared as resources). Each must thumbnail or fail with an `ImageError`, promptly and without
/// a large allocation: the ones found so far failed correctly before their fix too, but only after
/// making libpng zero a 2 GB text buffer or the shim fill an 800 MB row-pointer array.
@Suite struct RegressionsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions/images")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    /// The sizes the fuzz harnesses use: a square and a wide crop.
    private static let sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 96, height: 27)]

    /// The whole suite peaks far below this; each fixed input used to add 0.8–2 GB.
    private static let allowedGrowth = 512 << 20

    @Test func folderHoldsTheFoundInputs() {
        #expect(Self.files.contains("png-itxt-2gb-length.png"))
        #expect(Self.files.contains("png-1x100000000-row-pointers.png"))
        #expect(Self.files.contains("jpeg-704-scans-1536x1536.jpg"))
    }

    @Test(arguments: files)
    func thumbnailsOrFailsCleanlyWithinMemory(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(file)))
        let peakBefore = Self.peakResidentBytes()
        do {
            let thumbnails = try Thumbnailer.pngThumbnails(of: bytes, sizes: Self.sizes)
            #expect(thumbnails.count == Self.sizes.count)
        } catch {
            #expect(!error.message.isEmpty)
        }
        let growth = Self.peakResidentBytes() - peakBefore
        #expect(growth < Self.allowedGrowth, "\(file) raised peak memory by \(growth >> 20) MB")
    }

    /// A PNG whose iTXt chunk declares 2 GB: libpng only warns that the chunk is over its malloc
    /// limit, so the shim now skips unused ancillary chunks unread. Still an error (the data ends).
    @Test func hugeTextChunkFailsAsTruncated() throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent("png-itxt-2gb-length.png")))
        #expect(throws: ImageError("PNG: unexpected end of PNG data")) {
            try Thumbnailer.pngThumbnails(of: bytes, sizes: Self.sizes)
        }
    }

    /// A valid progressive JPEG with 704 scans (one per coefficient and bit; encoders write about 10).
    /// libjpeg walks the whole image once per scan before the first row comes out, so such files
    /// cost time in proportion to scans × size: 49 s for 704 scans at 10000×10000 from 2 MB. The scan
    /// count is now bounded by 16 passes at the pixel limit: 678 scans for this image by default,
    /// 16 under a limit of its own size.
    @Test func progressiveScanCountIsBoundedByThePixelLimit() throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent("jpeg-704-scans-1536x1536.jpg")))
        #expect(throws: ImageError("JPEG: more than 678 scans in a 1536x1536 image, over 16 passes at the 100000000-pixel limit")) {
            try Thumbnailer.pngThumbnails(of: bytes, sizes: Self.sizes)
        }
        #expect(throws: ImageError("JPEG: more than 16 scans in a 1536x1536 image, over 16 passes at the 2359296-pixel limit")) {
            try Thumbnailer.pngThumbnails(of: bytes, sizes: Self.sizes, limits: DecodeLimits(maxPixels: 1536 * 1536))
        }
    }

    /// Real progressive files (10 scans here; the most in the fixtures is 14) decode even at a pixel
    /// limit equal to their own size, where the floor of 16 scans applies.
    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func ordinaryProgressiveJPEGDecodesAtItsOwnSizeLimit() throws {
        let bytes = try Fixtures.bytes("jpeg/libjpeg-turbo/testimgp.jpg")  // 227×149, 10 scans
        let result = try thumbnail(bytes, "40x40", limits: DecodeLimits(maxPixels: 227 * 149))
        #expect(result.width == 40 && result.height == 40)
    }

    /// libpng skips every ancillary chunk except tRNS unread; the colour chunks (gAMA, cHRM,
    /// sRGB, iCCP, cICP) are read by the shim itself for colour management. The others must change
    /// no pixel: each file thumbnails exactly like a copy reduced to IHDR, PLTE, tRNS, the colour
    /// chunks, IDAT and IEND (text, background, sBIT, sPLT, histogram, physical size, time).
    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason),
          arguments: ["ctzn0g04.png", "ctjn0g04.png", "cm7n0g04.png",
                      "cs3n2c16.png", "ps2n2c16.png", "ch2n3p08.png", "cdfn2c08.png"])
    func skippedChunksChangeNoPixels(name: String) throws {
        let bytes = try Fixtures.bytes("pngsuite/\(name)")
        let stripped = try Self.keepingOnly(["IHDR", "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "cICP", "IDAT", "IEND"], of: bytes)
        #expect(stripped.count < bytes.count, "\(name) has no ancillary chunk to skip")
        #expect(try thumbnail(bytes, "40x40") == thumbnail(stripped, "40x40"))
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason))
    func transparencyChunkIsStillRead() throws {
        // tp1n3p08: a palette image whose tRNS makes some entries transparent.
        let bytes = try Fixtures.bytes("pngsuite/tp1n3p08.png")
        #expect(try thumbnail(bytes, "40x40").channels == 4)
        #expect(try thumbnail(Self.keepingOnly(["IHDR", "PLTE", "IDAT", "IEND"], of: bytes), "40x40").channels == 3)
    }

    /// The PNG with only the chunks of the given types, in their order (CRCs are kept as they were).
    static func keepingOnly(_ types: Set<String>, of png: [UInt8]) throws -> [UInt8] {
        var out = Array(png.prefix(8))
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            try #require(end <= png.count, "chunk at \(offset) runs past the end")
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            if types.contains(type) { out += png[offset..<end] }
            offset = end
        }
        return out
    }

    /// Peak resident set size of this process so far (getrusage reports kilobytes on Linux).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
