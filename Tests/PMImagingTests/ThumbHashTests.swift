import Testing
@testable import PMImaging

/// ThumbHash against the reference implementation's outputs: Evan Wallace's `js/thumbhash.js`
/// (github.com/evanw/thumbhash at a652ce6, MIT), run with Node 20 on the same integer-built
/// images as below. `hash` is `rgbaToThumbHash`'s bytes; `render` is `thumbHashToRGBA`'s width,
/// height and a checksum of its pixels (sum = (sum × 31 + byte) mod 1 000 000 007).
///
/// An AC term that is zero in exact arithmetic (the stripes' vertical ones) becomes 0.5 after
/// normalization and 7.5 before rounding, where the last bit of the platform's `cos` decides
/// between 7 and 8: implementations agree there only within one step, so that case is compared
/// nibble by nibble within one; every other case must match byte for byte.
@Suite struct ThumbHashTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let width: Int, height: Int
        let pixel: @Sendable (Int, Int) -> [Int]
        let hash: String
        let render: (Int, Int, Int)
        var exact = true
    }

    static let cases: [Case] = [
        Case(description: "gradient-40x40", width: 40, height: 40,
             pixel: { x, y in [(x * 6) % 256, (y * 6) % 256, ((x + y) * 3) % 256, 255] },
             hash: "1d080e071870777770787887887888788887f7f885707f08", render: (32, 32, 587_080_912)),
        Case(description: "landscape-64x40-alpha", width: 64, height: 40,
             pixel: { x, y in [(x * 4) % 256, 200 - y * 3, (x * y) % 256, x < 8 || y > 34 ? 0 : 128 + ((x * 2) % 128)] },
             hash: "e308861b8c29b0a86a7887c06e0d4c6750656c7784b857", render: (32, 19, 726_994_637)),
        Case(description: "portrait-30x90", width: 30, height: 90,
             pixel: { x, y in [((x - 15) * (x - 15) + (y - 45) * (y - 45)) % 256, (y * 2) % 256, 255 - (x * 8) % 256, 255] },
             hash: "dd360a62129f828767878787808588f998", render: (9, 32, 59_473_340)),
        Case(description: "blobs-100x100", width: 100, height: 100,
             pixel: { x, y in
                 let d = (x - 30) * (x - 30) + (y - 60) * (y - 60)
                 return [d < 400 ? 230 : 20, d < 900 ? 180 : 60, (x * 2 + y) % 256, 255]
             },
             hash: "d7a5095f02385368428a7950b8c879867887f78868709c07", render: (32, 32, 24_208_033)),
        Case(description: "stripes-100x7", width: 100, height: 7,
             pixel: { x, y in [(x % 10) < 5 ? 250 : 10, 120, (y * 30) % 256, 255] },
             hash: "1c190a518289898980878888888ff87788", render: (32, 5, 407_383_349), exact: false),
    ]

    static func pixels(_ test: Case) -> [UInt8] {
        var rgba: [UInt8] = []
        for y in 0..<test.height {
            for x in 0..<test.width { rgba += test.pixel(x, y).map { UInt8(max(0, min(255, $0))) } }
        }
        return rgba
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: cases) func encodesAsTheReferenceDoes(_ test: Case) {
        let hash = Self.hex(ThumbHash.encode(width: test.width, height: test.height, rgba: Self.pixels(test)))
        if test.exact {
            #expect(hash == test.hash)
        } else {
            #expect(hash.count == test.hash.count && hash.prefix(10) == test.hash.prefix(10), "the header is exact")
            let apart = zip(hash, test.hash).map { abs(Int(String($0), radix: 16)! - Int(String($1), radix: 16)!) }
            #expect(apart.allSatisfy { $0 <= 1 }, "\(hash) vs \(test.hash)")
        }
    }

    @Test(arguments: cases.filter(\.exact)) func rendersAsTheReferenceDoes(_ test: Case) throws {
        let hash = ThumbHash.encode(width: test.width, height: test.height, rgba: Self.pixels(test))
        let image = try #require(ThumbHash.render(hash))
        let sum = image.rgba.reduce(0) { ($0 * 31 + Int($1)) % 1_000_000_007 }
        #expect(image.width == test.render.0 && image.height == test.render.1 && sum == test.render.2)
    }

    @Test func aTileLargerThanTheAlgorithmTakesIsReducedFirst() {
        let big = PixelTile(pixels: [UInt8](repeating: 0, count: 240 * 160 * 3).enumerated().map { UInt8($0.offset % 251) },
                            width: 240, height: 160, channels: 3)
        let hash = ThumbHash.encode(big)
        #expect(hash.count >= 5)
        let image = ThumbHash.render(hash)
        #expect(image?.width == 32 && image?.height == 23, "landscape, at the hash's approximate 7:5")
    }

    @Test func bytesThatAreNotAHashRenderNothing() {
        #expect(ThumbHash.render([]) == nil)
        #expect(ThumbHash.render([0x1d, 0x08, 0x0e]) == nil)
        #expect(ThumbHash.render([0xff, 0xff, 0xff, 0x00, 0x80]) == nil, "landscape with no luminance terms")
    }
}
