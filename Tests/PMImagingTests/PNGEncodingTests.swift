import Dispatch
import Synchronization
import Testing
import CodecShim
@testable import PMImaging

/// The encoder writes single-filter PNGs itself (signature, IHDR, sRGB, one IDAT around one zlib
/// stream, IEND): every one must decode, through libpng's strict reader, to exactly the pixels given.
@Suite struct PNGEncodingTests {
    /// Sizes with one row, one column, odd widths, and more data than a small zlib window.
    static let sizes = [(1, 1), (1, 9), (9, 1), (2, 3), (40, 40), (40, 27), (27, 40), (97, 61), (300, 200)]

    /// Deterministic content that exercises every Paeth branch: noise, gradients, flat runs.
    static func pixels(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for i in bytes.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = UInt8(truncatingIfNeeded: state >> 56)
            switch (i / (width * channels)) % 3 {
            case 0: bytes[i] = noise
            case 1: bytes[i] = UInt8(truncatingIfNeeded: i * 7 / channels)
            default: bytes[i] = (i / 17) % 2 == 0 ? 255 : noise & 3
            }
        }
        return bytes
    }

    @Test(arguments: [3, 4])
    func roundTripsExactly(channels: Int) throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            let original = Self.pixels(width: width, height: height, channels: channels, seed: UInt64(index + 1))
            let png = try pngBytes(width: width, height: height, channels: channels, original)
            let decoded = try Pixels(png: png)
            #expect(decoded == Pixels(width: width, height: height, channels: channels, bytes: original),
                    "\(width)x\(height)x\(channels)")
        }
    }

    /// Chunk types in order, and the sRGB chunk's data.
    static func chunks(_ png: [UInt8]) -> (types: [String], srgb: [UInt8], end: Int) {
        var types: [String] = []
        var srgb: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            types.append(type)
            if type == "sRGB" { srgb = Array(png[offset + 8..<min(png.count, offset + 8 + length)]) }
            offset += 12 + length
        }
        return (types, srgb, offset)
    }

    /// Thumbnails are sRGB (the colour stage converts every profile) and say so: an sRGB chunk,
    /// rendering intent 0 (perceptual), right after IHDR as libpng places it.
    @Test func writesTheChunksInOrder() throws {
        let png = try pngBytes(width: 40, height: 40, channels: 3, Self.pixels(width: 40, height: 40, channels: 3, seed: 7))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = Self.chunks(png)
        #expect(chunks.types == ["IHDR", "sRGB", "IDAT", "IEND"])
        #expect(chunks.srgb == [0])
        #expect(chunks.end == png.count)
    }

    /// One filter at `level` (libdeflate's 0-12), through the shim.
    static func singleFilter(_ pixels: [UInt8], width: Int, height: Int, level: Int32) throws -> [UInt8] {
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let message = CodecMessage()
        let status = pixels.withUnsafeBufferPointer {
            pm_png_encode($0.baseAddress, Int32(width), Int32(height), 3, level, pm_png_filter_paeth, pm_zlib_strategy_default,
                          &buffer, message.pointer)
        }
        try #require(status == 0, "\(message.text ?? "")")
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.length))
    }

    /// Each thread keeps its compressor between encodes (png_encode.c): switching levels on one
    /// thread, and encoding on many threads at once, must give the bytes a fresh one gives.
    @Test func keptCompressorsGiveTheSameBytes() throws {
        let pixels = Self.pixels(width: 97, height: 61, channels: 3, seed: 11)
        let levels: [Int32] = [1, 6, 12, 0, 1, 6]
        let first = try Dictionary(levels.map { ($0, try Self.singleFilter(pixels, width: 97, height: 61, level: $0)) }) { a, _ in a }
        for level in levels.reversed() {
            #expect(try Self.singleFilter(pixels, width: 97, height: 61, level: level) == first[level], "level \(level)")
        }
        #expect(try Pixels(png: first[1]!) == Pixels(width: 97, height: 61, channels: 3, bytes: pixels))
        let threads = 8, rounds = 20
        let results = Mutex<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let level = levels[(thread + round) % levels.count]
                let png = (try? Self.singleFilter(pixels, width: 97, height: 61, level: level)) ?? []
                results.withLock { $0[thread * rounds + round] = png }
            }
        }
        let encoded = results.withLock { $0 }
        for thread in 0..<threads {
            for round in 0..<rounds {
                #expect(encoded[thread * rounds + round] == first[levels[(thread + round) % levels.count]])
            }
        }
    }

    /// libpng's path (adaptive filtering) writes the same sRGB chunk in the same place.
    @Test(arguments: [3, 4])
    func libpngPathSaysSRGBToo(channels: Int) throws {
        let pixels = Self.pixels(width: 40, height: 40, channels: channels, seed: 9)
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let message = CodecMessage()
        let status = pixels.withUnsafeBufferPointer {
            pm_png_encode($0.baseAddress, 40, 40, Int32(channels), 6, pm_png_filter_all, pm_zlib_strategy_default,
                          &buffer, message.pointer)
        }
        try #require(status == 0)
        let png = Array(UnsafeBufferPointer(start: buffer.data, count: buffer.length))
        let chunks = Self.chunks(png)
        #expect(chunks.types == ["IHDR", "sRGB", "IDAT", "IEND"])
        #expect(chunks.srgb == [0])
        #expect(try Pixels(png: png) == Pixels(width: 40, height: 40, channels: channels, bytes: pixels))
    }
}
