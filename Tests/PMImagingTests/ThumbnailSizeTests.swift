import Testing
import PMImaging
import PMSupport

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

/// The variant spelling the cache's folders, index rows and manifests use.
@Suite struct ThumbnailVariantTests {
    @Test(arguments: [
        ("40x40", 40, 40, ThumbnailFit.cover, ThumbnailFormat.png, Int?.none),
        ("40x40.webp", 40, 40, .cover, .webp, nil),
        ("40x40-contain", 40, 40, .contain, .png, nil),
        ("80x60-contain.avif", 80, 60, .contain, .avif, nil),
        ("40x40-q60.jpg", 40, 40, .cover, .jpeg, 60),
        ("40x40-contain-q90.webp", 40, 40, .contain, .webp, 90),
    ])
    func parsesAndSpellsEachVariantOneWay(text: String, width: Int, height: Int, fit: ThumbnailFit,
                                          format: ThumbnailFormat, quality: Int?) throws {
        let size = try #require(ThumbnailSize(variant: text))
        #expect(size == ThumbnailSize(width: width, height: height, fit: fit, format: format, quality: quality))
        #expect(size.description == text)
    }

    @Test(arguments: ["40X40", "40x40.png", "40x40-cover", "40x40-q80", "40x40-q75.webp", "40x40-q0.webp",
                      "40x40-q101.webp", "40x40-q080.webp", "40x40.jpeg", "40x40.gif", "40x40-contain-contain",
                      "40x40-q60-contain.webp", "40x40.webp.webp", "040x40", "40x40-", "-contain", ".webp", "",
                      "40x4097", "40x40-Contain", "40x40.WEBP", "lost+found", "40x40-q.webp"])
    func refusesEveryOtherSpelling(text: String) {
        #expect(ThumbnailSize(variant: text) == nil)
        if !text.hasPrefix("40x4097") { #expect(ThumbnailVariantName(parsing: text) == nil) }
    }

    @Test func aDefaultQualityOrALosslessFormatNamesNoQuality() {
        #expect(ThumbnailSize(width: 40, height: 40, format: .webp, quality: 75).description == "40x40.webp")
        #expect(ThumbnailSize(width: 40, height: 40, format: .png, quality: 30).description == "40x40")
        #expect(ThumbnailSize(width: 40, height: 40, format: .avif, quality: 30).description == "40x40-q30.avif")
    }

    @Test func theFolderNamesItsFilesExtension() {
        #expect(ThumbnailVariantName.fileExtension(ofFolder: "40x40") == "png")
        #expect(ThumbnailVariantName.fileExtension(ofFolder: "40x40-contain-q60.jpg") == "jpg")
        #expect(ThumbnailVariantName.fileExtension(ofFolder: "odd.") == "png")
    }
}
