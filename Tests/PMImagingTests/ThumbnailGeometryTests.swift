import Testing
@testable import PMImaging

@Suite struct ThumbnailGeometryTests {
    @Test func cropsWideSourcesAtTheSides() {
        let crop = ThumbnailGeometry.centreCrop(width: 1800, height: 1200, targetWidth: 40, targetHeight: 40)
        #expect(crop == CropRect(x: 300, y: 0, width: 1200, height: 1200))
    }

    @Test func cropsTallSourcesAtTopAndBottom() {
        let crop = ThumbnailGeometry.centreCrop(width: 100, height: 200, targetWidth: 80, targetHeight: 60)
        #expect(crop == CropRect(x: 0, y: 62.5, width: 100, height: 75))
    }

    @Test func keepsSourcesWithTheTargetAspect() {
        let crop = ThumbnailGeometry.centreCrop(width: 300, height: 200, targetWidth: 60, targetHeight: 40)
        #expect(crop == CropRect(x: 0, y: 0, width: 300, height: 200))
    }

    @Test func scaledSideMatchesLibjpegRounding() {
        #expect(ThumbnailGeometry.scaledSide(333, eighths: 1) == 42)
        #expect(ThumbnailGeometry.scaledSide(227, eighths: 3) == 86)
        #expect(ThumbnailGeometry.scaledSide(8, eighths: 1) == 1)
        #expect(ThumbnailGeometry.scaledSide(1, eighths: 1) == 1)
    }

    @Test(arguments: [
        (500, 333, [(40, 40)], 1),             // 63×42 still covers 40×40
        (500, 281, [(40, 40)], 2),             // 1/8 would give a 36 px short side
        (240, 160, [(40, 40)], 2),
        (30, 30, [(40, 40)], 8),               // smaller than the target: full size, then upscale
        (1600, 1200, [(40, 40), (200, 100)], 1),
        (1600, 1200, [(40, 40), (400, 400)], 3),  // the largest size decides
        (800, 100, [(80, 20)], 2),             // the short side matters even for a wide target
        (100, 800, [(80, 20)], 7),             // 88 px wide at 7/8
    ])
    func choosesTheSmallestCoveringScale(width: Int, height: Int, targets: [(Int, Int)], expected: Int) {
        let targets = targets.map { (width: $0.0, height: $0.1) }
        #expect(ThumbnailGeometry.jpegScaleEighths(width: width, height: height, targets: targets) == expected)
    }

    @Test(arguments: [
        (300, 225, [(40, 40)], 54, 40),           // 300 × 40/225 = 53.3, rounded up
        (300, 225, [(40, 40), (96, 27)], 96, 72), // the wide target needs 96 columns
        (128, 128, [(40, 40)], 40, 40),
        (100, 800, [(80, 20)], 80, 640),          // the short side decides even for a wide target
        (30, 30, [(40, 40)], 30, 30),             // never scaled up
        (200, 150, [(200, 10)], 200, 150),        // a target as wide as the image: full size
        (1000, 3, [(40, 40)], 1000, 3),
        (16383, 16383, [(1, 1)], 1, 1),
        (500, 500, [], 500, 500),                 // no targets: full size
    ])
    func coveringSizeIsTheSmallestThatHoldsEveryTarget(width: Int, height: Int, targets: [(Int, Int)],
                                                       expectedWidth: Int, expectedHeight: Int) {
        let targets = targets.map { (width: $0.0, height: $0.1) }
        let size = ThumbnailGeometry.coveringSize(width: width, height: height, targets: targets)
        #expect(size == (expectedWidth, expectedHeight))
        for target in targets {
            #expect(size.width >= min(target.width, width) && size.height >= min(target.height, height))
        }
    }
}
