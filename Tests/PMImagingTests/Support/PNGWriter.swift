/// Writes PNGs of any colour type and bit depth with any extra chunks, for tests: rows go
/// unfiltered into stored (uncompressed) deflate blocks, so no zlib is needed.
enum PNGWriter {
    enum ColorType: UInt8 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        var samples: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    /// A PNG of `rows` (each the packed samples of one row, without a filter byte), with
    /// `chunks` (type, data) between IHDR and IDAT.
    static func png(width: Int, height: Int, bitDepth: Int, colorType: ColorType, rows: [[UInt8]],
                    chunks: [(String, [UInt8])] = []) -> [UInt8] {
        precondition(rows.count == height)
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(bitDepth), colorType.rawValue, 0, 0, 0]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        for (type, data) in chunks { out += chunk(type, data) }
        out += chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
        return out + chunk("IEND", [])
    }

    /// Rows of pseudo-random samples of `bitDepth` bits, packed as PNG packs them.
    static func noiseRows(width: Int, height: Int, bitDepth: Int, samples: Int, seed: UInt64,
                          sample: ((x: Int, y: Int, channel: Int, random: Int)) -> Int = { $0.random }) -> [[UInt8]] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        let maximum = (1 << bitDepth) - 1
        return (0..<height).map { y in
            var bits: [Int] = []
            for x in 0..<width {
                for channel in 0..<samples {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let random = Int(state >> 33) & maximum
                    bits.append(min(maximum, max(0, sample((x, y, channel, random)))))
                }
            }
            return pack(bits, bitDepth: bitDepth)
        }
    }

    /// A zlib stream of stored blocks: the data as it is, framed and checksummed.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(ColorManagementTests.crc32(body[...]))
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func pack(_ values: [Int], bitDepth: Int) -> [UInt8] {
        switch bitDepth {
        case 16: return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return values.map { UInt8($0) }
        default:
            var out: [UInt8] = []
            var byte = 0, used = 0
            for value in values {
                byte = byte << bitDepth | value
                used += bitDepth
                if used == 8 {
                    out.append(UInt8(byte))
                    byte = 0
                    used = 0
                }
            }
            if used > 0 { out.append(UInt8(byte << (8 - used))) }
            return out
        }
    }
}
