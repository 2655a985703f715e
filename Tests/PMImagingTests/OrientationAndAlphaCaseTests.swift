import Testing
@testable import PMImaging

/// Issue 24's orientation and alpha cases on the generated files of the corpus
/// (generated/make_decoding_cases.py), against the photo they were made from: EXIF orientation
/// stored as LONG or SLONG.
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

}
