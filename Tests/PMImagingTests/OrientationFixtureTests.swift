import Testing
@testable import PMImaging

@Suite(.enabled(if: Fixtures.available, Fixtures.missingReason))
struct OrientationFixtureTests {
    /// Each `*_N.jpg` is stored transformed so that it only looks upright when tag N is honoured.
    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func everyOrientationMatchesTheUprightOriginal(set: String, orientation: Int) throws {
        let reference = try thumbnail(try Fixtures.bytes("jpeg/exif-orientation/\(set)_1.jpg"), "40x40")
        let oriented = try thumbnail(try Fixtures.bytes("jpeg/exif-orientation/\(set)_\(orientation).jpg"), "40x40")
        #expect(oriented.meanAbsoluteDifference(to: reference) < 4)
    }

    @Test func theComparisonWouldCatchAWrongOrientation() throws {
        // Same photo, ignoring the tag: must differ far more than the tolerance above.
        let upright = try thumbnail(try Fixtures.bytes("jpeg/exif-orientation/Landscape_1.jpg"), "40x40")
        let tile = PixelTile(pixels: upright.bytes, width: 40, height: 40, channels: 3)
        for wrong in [ExifOrientation.rotate180, .mirrorHorizontal, .rotate90Clockwise] {
            let turned = wrong.apply(to: tile)
            let pixels = Pixels(width: 40, height: 40, channels: 3, bytes: turned.pixels)
            #expect(pixels.meanAbsoluteDifference(to: upright) > 15)
        }
    }

    @Test func tagIsReadFromTheJPEG() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow/hopper_orientation_6.jpg")
        let orientation = try bytes.withUnsafeBytes { buffer in
            try JPEGDecoding.decode(buffer, covering: [ThumbnailSize(width: 40, height: 40)], limits: .default).orientation
        }
        #expect(orientation == .rotate90Clockwise)
    }

    @Test(arguments: 2...8)
    func hopperVariantsMatchHopper(orientation: Int) throws {
        let reference = try thumbnail(try Fixtures.bytes("jpeg/pillow/hopper.jpg"), "40x40")
        let oriented = try thumbnail(try Fixtures.bytes("jpeg/pillow/hopper_orientation_\(orientation).jpg"), "40x40")
        #expect(oriented.meanAbsoluteDifference(to: reference) < 4)
    }

    @Test func rotatedNonSquareTargetsComeOutUpright() throws {
        // Landscape_6 is stored 1200×1800; an 80×40 thumbnail must still match the upright one.
        let reference = try thumbnail(try Fixtures.bytes("jpeg/exif-orientation/Landscape_1.jpg"), "80x40")
        let rotated = try thumbnail(try Fixtures.bytes("jpeg/exif-orientation/Landscape_6.jpg"), "80x40")
        #expect(rotated.width == 80 && rotated.height == 40)
        #expect(rotated.meanAbsoluteDifference(to: reference) < 4)
    }
}
