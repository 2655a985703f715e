import Foundation
import Testing
@testable import PMImaging

/// `DeclaredSize`: the upright size a header declares, read without decoding (`--min-pixels`).
@Suite struct DeclaredSizeTests {
    /// Files of every format, with and without an orientation, and the HEIF transforms.
    static let corpus: [String] = {
        func images(in folder: URL, as prefix: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { ["jpg", "png", "gif", "webp", "avif", "heic", "heif"].contains(($0 as NSString).pathExtension) }
                .map { "\(prefix)/\($0)" }
        }
        let local = ["heif", "gif", "webp"].flatMap { folder in
            images(in: HEIFFixtureTests.directory.deletingLastPathComponent().appendingPathComponent(folder), as: folder)
        }
        return (local + images(in: Corpus.root.appendingPathComponent("generated"), as: "generated")).sorted()
    }()

    static func bytes(_ path: String) throws -> [UInt8] {
        if path.hasPrefix("generated/") { return try Corpus.bytes(path) }
        return Array(try Data(contentsOf: HEIFFixtureTests.directory.deletingLastPathComponent().appendingPathComponent(path)))
    }

    /// The upright size of what the decoder makes at full scale: what the header must foretell.
    static func decodedUpright(_ bytes: [UInt8]) throws(ImageError) -> DeclaredSize {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) -> DeclaredSize in
                guard let format = ImageFormat.sniff(buffer) else { throw ImageError.notAnImage(startingWith: buffer) }
                let image = try format.decoder(buffer, [ThumbnailSize(width: ThumbnailSize.maxSide, height: ThumbnailSize.maxSide)],
                                               .default)
                return DeclaredSize(storedWidth: image.width, storedHeight: image.height, orientation: image.orientation)
            }
        }
        return try result.get()
    }

    @Test func theCorpusHasEveryFormat() {
        for suffix in [".jpg", ".png", ".webp", ".gif", ".avif", ".heic"] {
            #expect(Self.corpus.contains { $0.hasSuffix(suffix) }, "no \(suffix) file")
        }
    }

    @Test(arguments: corpus)
    func theHeaderForetellsTheDecodedUprightSize(path: String) throws {
        let bytes = try Self.bytes(path)
        // A file that does not decode has no size to foretell (its failure is the decoder's to report).
        guard let decoded = try? Self.decodedUpright(bytes) else { return }
        #expect(try DeclaredSize(of: bytes) == decoded)
    }

    @Test func anEXIFRotationExchangesTheSides() throws {
        let stored = try DeclaredSize(of: try HEIFFixtureTests.paris(exifOrientation: 1))
        let rotated = try DeclaredSize(of: try HEIFFixtureTests.paris(exifOrientation: 6))
        #expect(stored.width != stored.height)
        #expect(rotated == DeclaredSize(width: stored.height, height: stored.width))

        let rows = PNGWriter.noiseRows(width: 20, height: 10, bitDepth: 8, samples: 3, seed: 1)
        let png = PNGWriter.png(width: 20, height: 10, bitDepth: 8, colorType: .rgb, rows: rows,
                                chunks: [("eXIf", ScaledPNGDecodeTests.exif(orientation: 6))])
        #expect(try DeclaredSize(of: png) == DeclaredSize(width: 10, height: 20))
    }

    @Test func aSpacerIsOnePixel() throws {
        let spacer = Array(Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")!)
        #expect(try DeclaredSize(of: spacer) == DeclaredSize(width: 1, height: 1))
        #expect(try DeclaredSize(of: spacer).description == "1×1 px")
    }

    @Test func bytesThatAreNoImageSayWhat() {
        #expect(throws: ImageError.self) { try DeclaredSize(of: Array("<html>".utf8)) }
        // A PNG signature with no IHDR after it: the shim's own message.
        #expect(throws: ImageError.self) { try DeclaredSize(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]) }
    }
}

@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct DeclaredJPEGSizeTests {
    /// Each `*_N.jpg` is stored transformed so that it only looks upright when tag N is honoured:
    /// upright, all have the size of `*_1.jpg`.
    @Test(arguments: ["Landscape", "Portrait"], 2...8)
    func everyOrientationDeclaresTheUprightSize(set: String, orientation: Int) throws {
        let upright = try DeclaredSize(of: try Fixtures.bytes("jpeg/exif-orientation/\(set)_1.jpg"))
        #expect(try DeclaredSize(of: try Fixtures.bytes("jpeg/exif-orientation/\(set)_\(orientation).jpg")) == upright)
    }
}
