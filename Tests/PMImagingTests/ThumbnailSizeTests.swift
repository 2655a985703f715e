import Testing
import PMImaging

@Suite struct ThumbnailSizeTests {
    @Test(arguments: [("40x40", 40, 40), ("80X60", 80, 60), ("1x4096", 1, 4096), ("007x8", 7, 8)])
    func parsesValidSpecs(spec: String, width: Int, height: Int) throws {
        let size = try #require(ThumbnailSize(parsing: spec))
        #expect(size.width == width && size.height == height)
    }

    @Test(arguments: ["", "40", "x40", "40x", "0x40", "40x0", "-4x40", "+40x40", "40x4097", "40 x40",
                      " 40x40", "40x40x40", "4.0x40", "axb", "40×40", "99999999999999999999x1", "٤٠x40"])
    func rejectsInvalidSpecs(spec: String) {
        #expect(ThumbnailSize(parsing: spec) == nil)
    }

    @Test func descriptionIsTheCacheKeyForm() throws {
        #expect(ThumbnailSize(width: 80, height: 60).description == "80x60")
        #expect(try #require(ThumbnailSize(parsing: "80X60")).description == "80x60")
    }
}
