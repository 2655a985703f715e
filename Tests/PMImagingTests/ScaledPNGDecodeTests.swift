import Foundation
import Testing
import CodecShim
@testable import PMImaging

/// PNGs are scaled row by row as they are decoded (never holding the whole image); the thumbnails
/// must be exactly those of decoding the whole image, converting it to sRGB and then averaging.
@Suite struct ScaledPNGDecodeTests {
    /// Several sizes from one decode: downscaled, a thin and a transposed aspect, upscaled.
    static let sizes = ["40x40", "17x5", "64x96", "300x300"].map { ThumbnailSize(parsing: $0)! }

    typealias Case = (name: String, png: [UInt8])

    static func exif(orientation: UInt16) -> [UInt8] {
        // Little-endian TIFF, one IFD holding Orientation (SHORT, count 1).
        [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0,
         UInt8(orientation), 0, 0, 0, 0, 0, 0, 0]
    }

    static func iccp(_ profile: [UInt8]) -> [UInt8] {
        Array("profile".utf8) + [0, 0] + PNGWriter.zlibStored(profile)
    }

    static let displayP3: [UInt8] = (try? ColorManagementTests.bytes("DisplayP3-test.icc")) ?? []

    /// The Display P3 profile relabelled as a grey one: a grey profile that LittleCMS may or
    /// may not accept, which either way must be treated alike on both paths.
    static var greyLabelled: [UInt8] {
        var profile = displayP3
        if profile.count > 20 { profile.replaceSubrange(16..<20, with: Array("GRAY".utf8)) }
        return profile
    }

    static func make(_ name: String, _ width: Int, _ height: Int, depth: Int, _ type: PNGWriter.ColorType,
                     chunks: [(String, [UInt8])] = [], seed: UInt64 = 1,
                     sample: ((x: Int, y: Int, channel: Int, random: Int)) -> Int = { $0.random }) -> Case {
        let rows = PNGWriter.noiseRows(width: width, height: height, bitDepth: depth, samples: type.samples,
                                       seed: seed, sample: sample)
        return (name, PNGWriter.png(width: width, height: height, bitDepth: depth, colorType: type, rows: rows,
                                    chunks: chunks))
    }

    /// Alpha from fully transparent (a band on the left) through partly to opaque.
    static func bandedAlpha(_ s: (x: Int, y: Int, channel: Int, random: Int), alphaChannel: Int, maximum: Int) -> Int {
        guard s.channel == alphaChannel else { return s.random }
        if s.x < 20 { return 0 }
        return s.y % 3 == 0 ? maximum : s.random
    }

    static let palette: [UInt8] = (0..<256).flatMap { (index: Int) -> [UInt8] in
        [UInt8(index), UInt8(255 - index), UInt8(index * 7 & 0xFF)]
    }

    static let wideChromaticities: [UInt8] = [UInt32](arrayLiteral: 31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000)
        .flatMap { PNGWriter.be32($0) }

    static let generated: [Case] = [
        make("rgb8", 257, 129, depth: 8, .rgb),
        make("rgba8", 255, 131, depth: 8, .rgba) { bandedAlpha($0, alphaChannel: 3, maximum: 255) },
        make("palette8+tRNS", 200, 99, depth: 8, .palette,
             chunks: [("PLTE", palette), ("tRNS", (0..<100).map { (index: Int) -> UInt8 in UInt8(index * 5 % 256) })]),
        make("palette4+tRNS", 61, 77, depth: 4, .palette,
             chunks: [("PLTE", Array(palette.prefix(48))), ("tRNS", [0, 128, 255, 7])]),
        make("palette2", 33, 45, depth: 2, .palette, chunks: [("PLTE", Array(palette.prefix(12)))]),
        make("grey8", 301, 97, depth: 8, .grey),
        make("grey1", 123, 45, depth: 1, .grey),
        make("greyAlpha8", 97, 301, depth: 8, .greyAlpha) { bandedAlpha($0, alphaChannel: 1, maximum: 255) },
        make("grey16+tRNS", 130, 70, depth: 16, .grey, chunks: [("tRNS", [0x12, 0x34])]) {
            $0.x % 5 == 0 ? 0x1234 : $0.random
        },
        make("rgb16", 129, 257, depth: 16, .rgb),
        make("rgba16", 63, 63, depth: 16, .rgba) { bandedAlpha($0, alphaChannel: 3, maximum: 65535) },
        make("rgb8+tRNS", 90, 60, depth: 8, .rgb, chunks: [("tRNS", [0, 10, 0, 20, 0, 30])]) {
            $0.x % 4 == 0 ? [10, 20, 30][$0.channel] : $0.random
        },
        make("rgb8+gAMA", 150, 100, depth: 8, .rgb, chunks: [("gAMA", PNGWriter.be32(70000))]),
        make("rgba8+gAMA+cHRM", 101, 103, depth: 8, .rgba,
             chunks: [("gAMA", PNGWriter.be32(45455)),
                      ("cHRM", wideChromaticities)]) {
            bandedAlpha($0, alphaChannel: 3, maximum: 255)
        },
        make("rgb8+sRGB", 80, 81, depth: 8, .rgb, chunks: [("sRGB", [0])]),
        make("rgba8+iCCP", 120, 90, depth: 8, .rgba, chunks: [("iCCP", iccp(displayP3))]) {
            bandedAlpha($0, alphaChannel: 3, maximum: 255)
        },
        make("rgb16+iCCP", 77, 55, depth: 16, .rgb, chunks: [("iCCP", iccp(displayP3))]),
        make("grey8+grey-iCCP", 70, 50, depth: 8, .grey, chunks: [("iCCP", iccp(greyLabelled))]),
        make("rgb8+grey-iCCP", 70, 50, depth: 8, .rgb, chunks: [("iCCP", iccp(greyLabelled))]),
        make("rgb8+cICP", 64, 48, depth: 8, .rgb, chunks: [("cICP", [12, 13, 0, 1])]),
        make("rgb8+eXIf6", 160, 90, depth: 8, .rgb, chunks: [("eXIf", exif(orientation: 6))]),
        make("rgba8+eXIf5", 91, 160, depth: 8, .rgba, chunks: [("eXIf", exif(orientation: 5))]),
        make("rgb8+eXIf3+iCCP", 66, 99, depth: 8, .rgb,
             chunks: [("iCCP", iccp(displayP3)), ("eXIf", exif(orientation: 3))]),
        make("1x1", 1, 1, depth: 8, .rgba),
        make("1x3000", 1, 3000, depth: 8, .rgb),
        make("3000x2", 3000, 2, depth: 8, .grey),
    ]

    static func tiles(_ png: [UInt8], sizes: [ThumbnailSize] = sizes, scaling: Bool) throws -> [PixelTile] {
        try png.withUnsafeBytes { bytes in
            try PNGDecoding.tiles(bytes, sizes: sizes, limits: .default, scaling: scaling).tiles
        }
    }

    /// Whether the decoder takes the row-by-row path for the file.
    static func scalable(_ png: [UInt8]) throws -> Bool {
        let message = CodecMessage()
        var header = pm_png_header()
        let opened = png.withUnsafeBufferPointer { bytes in
            pm_png_open(bytes.baseAddress, bytes.count, 1 << 30, &header, message.pointer)
        }
        let handle = try #require(opened)
        pm_png_close(handle)
        return header.scalable != 0
    }

    @Test func generatedCasesAreScaledRowByRowExceptAGreyProfileOnColour() throws {
        #expect(Self.displayP3.count > 132, "Fixtures/color/DisplayP3-test.icc is missing")
        for (name, png) in Self.generated {
            #expect(try Self.scalable(png) == (name != "rgb8+grey-iCCP"), "\(name)")
        }
    }

    @Test(arguments: generated.map(\.name))
    func scaledDecodeEqualsTheWholeImageDecode(name: String) throws {
        let png = try #require(Self.generated.first { $0.name == name }).png
        let scaled = try Self.tiles(png, scaling: true)
        let whole = try Self.tiles(png, scaling: false)
        #expect(scaled.count == Self.sizes.count)
        for (index, size) in Self.sizes.enumerated() {
            #expect(scaled[index] == whole[index], "\(name) at \(size)")
            #expect(scaled[index].width == size.width && scaled[index].height == size.height, "\(name) at \(size)")
        }
        // One size at a time gives what the batch gave.
        for (index, size) in Self.sizes.enumerated() {
            #expect(try Self.tiles(png, sizes: [size], scaling: true) == [scaled[index]], "\(name) alone at \(size)")
        }
    }

    /// The generated cases exercise what they claim: colour conversion, alpha, orientation.
    @Test func casesAreNotTrivial() throws {
        func tile(_ name: String) throws -> PixelTile {
            try Self.tiles(try #require(Self.generated.first { $0.name == name }).png, scaling: true)[0]
        }
        func untagged(_ name: String) throws -> PixelTile {
            let png = try #require(Self.generated.first { $0.name == name }).png
            return try Self.tiles(RegressionsTests.keepingOnly(["IHDR", "PLTE", "tRNS", "IDAT", "IEND"], of: png),
                                  scaling: true)[0]
        }
        for name in ["rgba8+iCCP", "rgb8+gAMA", "rgb8+cICP", "rgb8+eXIf6"] {
            #expect(try tile(name) != untagged(name), "\(name) looks as if its chunk were ignored")
        }
        #expect(try tile("rgba8").channels == 4)
        #expect(try tile("palette8+tRNS").channels == 4)
        #expect(try tile("rgb8").channels == 3)
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.missingReason), arguments: PNGFixtureTests.validSuite)
    func pngSuiteScaledEqualsWhole(path: String) throws {
        let png = try Fixtures.bytes(path)
        #expect(try Self.tiles(png, scaling: true) == Self.tiles(png, scaling: false), "\(path)")
    }

    @Test(arguments: ["ring-p3.png", "exif-orientation-6.png", "xmp_tags_orientation.png",
                      "xmp_tags_orientation_exiftool.png", "icc_profile.png", "icc_profile_none.png"])
    func colourFixturesScaledEqualsWhole(name: String) throws {
        let png = try ColorManagementTests.bytes(name)
        #expect(try Self.scalable(png))
        #expect(try Self.tiles(png, scaling: true) == Self.tiles(png, scaling: false), "\(name)")
    }

    /// Damage found midway gives what the whole decode gives, rows and warning: the scaled decode
    /// hands a file that breaks after some rows to the whole one, which keeps them.
    @Test func damageFoundMidwayGivesWhatTheWholeDecodeGives() throws {
        func decoded(_ png: [UInt8], scaling: Bool) throws -> Tiles {
            try png.withUnsafeBytes { bytes in
                try PNGDecoding.tiles(bytes, sizes: Self.sizes, limits: .default, scaling: scaling)
            }
        }
        var png = try #require(Self.generated.first { $0.name == "rgb8" }).png
        let idat = try #require((8..<png.count - 4).first { png[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        png[idat + 4 + 40_000] ^= 0xFF  // a stored sample: zlib's checksum no longer matches
        // zlib checks its checksum as it inflates the last row's bytes, so that row is lost too.
        let checksum = try decoded(png, scaling: true)
        #expect(checksum.warning == "IDAT: incorrect data check: 128 of 129 rows decoded, the rest left transparent")
        #expect(checksum.tiles == (try decoded(png, scaling: false)).tiles)
        #expect(checksum.tiles.allSatisfy { $0.channels == 4 })
        let truncated = Array(png.prefix(idat + 20_000))
        let cut = try decoded(truncated, scaling: true)
        #expect(cut.warning?.hasPrefix("unexpected end of PNG data: ") == true, "\(cut.warning ?? "")")
        #expect(cut.tiles == (try decoded(truncated, scaling: false)).tiles)
        #expect(cut.tiles.allSatisfy { $0.channels == 4 })
    }
}
