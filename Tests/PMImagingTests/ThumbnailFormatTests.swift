import Testing
import PMSupport
@testable import PMImaging

/// Each thumbnail format and fit, written by the thumbnailer and read back with the module's own
/// decoders: the file is of the asked format, the box's size, with alpha where it should be.
@Suite struct ThumbnailFormatTests {
    /// 120×60, a colour ramp; with `alpha`, its left quarter is transparent.
    static func source(alpha: Bool) throws -> [UInt8] {
        var pixels = [UInt8]()
        for y in 0..<60 {
            for x in 0..<120 {
                pixels += [UInt8(x * 2), UInt8(y * 4), 160]
                if alpha { pixels.append(x < 30 ? 0 : 255) }
            }
        }
        return try pngBytes(width: 120, height: 60, channels: alpha ? 4 : 3, pixels)
    }

    /// The file's format by its magic and its pixels as our decoder gives them.
    static func decodeBack(_ file: [UInt8], size: ThumbnailSize) throws -> (format: String, pixels: Pixels) {
        try file.withUnsafeBytes { buffer in
            let format = try #require(ImageFormat.sniff(buffer))
            let image = try format.decoder(buffer, [ThumbnailSize(width: size.width, height: size.height)], .default)
            let count = image.width * image.height * image.channels
            return (format.name, Pixels(width: image.width, height: image.height, channels: image.channels,
                                        bytes: Array(UnsafeBufferPointer(start: image.raw.data, count: count))))
        }
    }

    static let decodedNames: [ThumbnailFormat: String] = [.png: "png", .webp: "webp", .avif: "avif", .jpeg: "jpeg"]

    @Test(arguments: ThumbnailFormat.allCases, ThumbnailFit.allCases)
    func writesTheFormatAtTheBoxSize(format: ThumbnailFormat, fit: ThumbnailFit) throws {
        let size = ThumbnailSize(width: 40, height: 40, fit: fit, format: format)
        let file = try #require(Thumbnailer.thumbnails(of: try Self.source(alpha: false), sizes: [size]).files.first)
        let (name, pixels) = try Self.decodeBack(file, size: size)
        #expect(name == Self.decodedNames[format])
        #expect(pixels.width == 40 && pixels.height == 40)
        // The middle of the box is the picture in both fits: its blue channel is 160 throughout.
        let middle = pixels.pixel(20, 20)
        #expect(abs(Int(middle[2]) - 160) < 24, "middle pixel \(middle)")
        if fit == .contain {
            // 120×60 into 40×40: 40×20 in the middle, 10 rows of padding above and below.
            let corner = pixels.pixel(0, 0)
            if format.hasAlpha {
                #expect(pixels.channels == 4 && corner[3] == 0, "corner \(corner)")
                #expect(pixels.pixel(20, 20)[3] == 255)
            } else {
                #expect(pixels.channels == 3 && corner.allSatisfy { $0 > 240 }, "corner \(corner)")
            }
        } else if format != .avif {
            // An opaque cover is written without alpha (AVIF's decoder may still hand out RGBA).
            #expect(pixels.channels == 3)
        }
    }

    @Test(arguments: [ThumbnailFormat.webp, .avif, .png])
    func transparencyIsKeptWhereTheFormatHasIt(format: ThumbnailFormat) throws {
        let size = ThumbnailSize(width: 40, height: 20, format: format)
        let file = try #require(Thumbnailer.thumbnails(of: try Self.source(alpha: true), sizes: [size]).files.first)
        let pixels = try Self.decodeBack(file, size: size).pixels
        #expect(pixels.channels == 4)
        #expect(pixels.pixel(2, 10)[3] < 16 && pixels.pixel(30, 10)[3] > 240)
    }

    @Test func jpegFlattensTransparencyOntoWhite() throws {
        let size = ThumbnailSize(width: 40, height: 20, format: .jpeg)
        let file = try #require(Thumbnailer.thumbnails(of: try Self.source(alpha: true), sizes: [size]).files.first)
        let pixels = try Self.decodeBack(file, size: size).pixels
        #expect(pixels.channels == 3)
        #expect(pixels.pixel(2, 10).allSatisfy { $0 > 235 }, "transparent corner \(pixels.pixel(2, 10))")
    }

    @Test(arguments: [ThumbnailFormat.webp, .avif, .jpeg])
    func lowerQualityWritesFewerBytes(format: ThumbnailFormat) throws {
        let source = try Self.source(alpha: false)
        let low = ThumbnailSize(width: 96, height: 48, format: format, quality: 10)
        let high = ThumbnailSize(width: 96, height: 48, format: format, quality: 95)
        let files = try Thumbnailer.thumbnails(of: source, sizes: [low, high]).files
        #expect(files[0].count < files[1].count, "q10 \(files[0].count) B, q95 \(files[1].count) B")
    }

    @Test func theDefaultIsThePNGItAlwaysWas() throws {
        let source = try Self.source(alpha: false)
        let plain = try Thumbnailer.pngThumbnails(of: source, sizes: [ThumbnailSize(width: 40, height: 40)])
        let spelled = try Thumbnailer.thumbnails(of: source, sizes: [ThumbnailSize(width: 40, height: 40, fit: .cover, format: .png)])
        #expect(plain == spelled.files)
        #expect(try Pixels(png: plain[0]).channels == 3)
    }

    @Test func containOfAnImageOfTheBoxAspectNeedsNoPadding() throws {
        let size = ThumbnailSize(width: 40, height: 20, fit: .contain)
        let contained = try Thumbnailer.pngThumbnails(of: try Self.source(alpha: false), sizes: [size])
        let covered = try Thumbnailer.pngThumbnails(of: try Self.source(alpha: false), sizes: [ThumbnailSize(width: 40, height: 20)])
        #expect(contained == covered)
    }
}

@Suite struct ThumbnailEncoderCheckTests {
    /// This machine is Debian 12 with libheif1 1.15.1 built with libaom: every format is writable.
    @Test(arguments: ThumbnailFormat.allCases)
    func everyFormatIsWritableHere(format: ThumbnailFormat) {
        #expect(ThumbnailEncoderCheck.unavailability(of: format) == nil)
    }
}

@Suite struct ContainGeometryTests {
    @Test(arguments: [
        (120, 60, 40, 40, 40, 20), (60, 120, 40, 40, 20, 40), (100, 100, 40, 20, 20, 20),
        (1000, 1, 40, 40, 40, 1), (3, 2, 40, 40, 40, 27), (40, 20, 40, 20, 40, 20),
    ])
    func fitsInsideTheBoxKeepingTheAspect(width: Int, height: Int, boxWidth: Int, boxHeight: Int,
                                          fittedWidth: Int, fittedHeight: Int) {
        let fitted = ThumbnailGeometry.containedSize(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
        #expect(fitted.width == fittedWidth && fitted.height == fittedHeight)
    }

    @Test func aRotatedImageIsContainedUpright() {
        // Stored 60×120 turned a quarter: upright 120×60, so 40×20 in a 40×40 box; stored 20×40.
        let size = ThumbnailSize(width: 40, height: 40, fit: .contain)
        let target = ThumbnailGeometry.storedTarget(size, orientation: .rotate90Clockwise, imageWidth: 60, imageHeight: 120)
        #expect(target.width == 20 && target.height == 40)
        #expect(target.crop == CropRect(x: 0, y: 0, width: 60, height: 120))
    }
}
