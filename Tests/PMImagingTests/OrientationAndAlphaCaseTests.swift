import Testing
@testable import PMImaging

/// Issue 24's orientation and alpha cases on the generated files of the corpus
/// (generated/make_decoding_cases.py), against the photo they were made from: EXIF orientation
/// stored as LONG or SLONG, and the edges of WebPs with alpha.
@Suite struct OrientationAndAlphaCaseTests {
    // MARK: EXIF orientation of any integer type

    /// Orientation 6 as SLONG in a big-endian TIFF (JPEG), 8 as LONG in a little-endian one
    /// (WebP EXIF chunk): applied, as Pillow and libvips apply them.
    @Test(arguments: [("generated/kodim03-orientation6-slong.jpg", ExifOrientation.rotate90Clockwise),
                      ("generated/kodim03-orientation8-long.webp", ExifOrientation.rotate90CounterClockwise)])
    func orientationStoredAsAnyIntegerIsApplied(file: String, orientation: ExifOrientation) throws {
        let source = try Corpus.sourcePhoto()
        let upright = orientation.apply(to: PixelTile(pixels: source.bytes, width: source.width, height: source.height,
                                                      channels: source.channels))
        let expected = try Pixels(width: upright.width, height: upright.height, channels: 3, bytes: upright.pixels)
            .shrunk(to: 32, 48)
        let ours = try thumbnail(try Corpus.bytes(file), "32x48")
        #expect(ours.meanAbsoluteDifference(to: expected) < 3, "\(file)")
    }

    // MARK: WebP with alpha

    /// A lossy WebP whose transparent area is white: libwebp's rescaler averages its colour
    /// unweighted by alpha, which left a light outline (2-6/255 over black). The thumbnail is the
    /// premultiplied area average of the full-size decode, as for any other format.
    @Test(arguments: ["generated/kodim03-alpha-lossy.webp", "libwebp-test-data/lossy_alpha1.webp"])
    func alphaEdgesAreAveragedPremultiplied(file: String) throws {
        let bytes = try Corpus.bytes(file)
        let full = try bytes.withUnsafeBytes { buffer in
            let image = try WebPDecoding.decode(buffer, covering: [], limits: .default)
            return Pixels(width: image.width, height: image.height, channels: image.channels,
                          bytes: Array(UnsafeBufferPointer(start: image.raw.data, count: image.width * image.height * image.channels)))
        }
        let reference = try thumbnail(try pngBytes(width: full.width, height: full.height, channels: full.channels, full.bytes),
                                      "40x40")
        let ours = try thumbnail(bytes, "40x40")
        #expect(ours.differenceOverBlack(to: reference) < 0.1, "\(file): \(ours.differenceOverBlack(to: reference))")
    }
}
