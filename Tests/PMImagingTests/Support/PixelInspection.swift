import Testing
@testable import PMImaging

/// Decoded pixels of a thumbnail PNG, copied out so tests can compare them freely.
struct Pixels: Equatable {
    let width: Int
    let height: Int
    let channels: Int
    let bytes: [UInt8]

    init(width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }

    /// Decodes with the module's own PNG decoder.
    init(png: [UInt8]) throws {
        let decoded = try png.withUnsafeBytes { buffer in
            let image = try PNGDecoding.decode(buffer, limits: .default)
            let count = image.width * image.height * image.channels
            return Pixels(width: image.width, height: image.height, channels: image.channels,
                          bytes: Array(UnsafeBufferPointer(start: image.raw.data, count: count)))
        }
        self = decoded
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * width + x) * channels
        return Array(bytes[start..<start + channels])
    }

    /// Mean absolute difference per colour sample (0...255) between same-sized RGB(A) images.
    func meanAbsoluteDifference(to other: Pixels) -> Double {
        precondition(width == other.width && height == other.height)
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x, y), b = other.pixel(x, y)
                for c in 0..<3 { total += abs(Int(a[c]) - Int(b[c])) }
            }
        }
        return Double(total) / Double(width * height * 3)
    }
}

/// Encodes a synthetic test image with the module's encoder.
func pngBytes(width: Int, height: Int, channels: Int, _ pixels: [UInt8]) throws -> [UInt8] {
    try PNGEncoding.encode(PixelTile(pixels: pixels, width: width, height: height, channels: channels))
}

/// What the thumbnailer says of a damaged file it still thumbnails at `spec`; nil for a whole one.
func warning(_ bytes: [UInt8], _ spec: String, limits: DecodeLimits = .default) throws -> String? {
    let size = try #require(ThumbnailSize(parsing: spec))
    return try Thumbnailer.thumbnails(of: bytes, sizes: [size], limits: limits).warning
}

func thumbnail(_ bytes: [UInt8], _ spec: String, limits: DecodeLimits = .default) throws -> Pixels {
    let size = try #require(ThumbnailSize(parsing: spec))
    let png = try Thumbnailer.pngThumbnails(of: bytes, sizes: [size], limits: limits)
    return try Pixels(png: try #require(png.first))
}
