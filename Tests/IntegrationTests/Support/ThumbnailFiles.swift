import Foundation

/// A thumbnail file's format and size read from its own header, without our decoders: PNG's
/// IHDR, JPEG's SOF, WebP's VP8/VP8L/VP8X chunk, AVIF's `ispe` property.
struct ThumbnailFile: Equatable {
    let format: String
    let width: Int
    let height: Int

    init?(_ data: Data) {
        let bytes = [UInt8](data)
        func be(_ offset: Int, _ count: Int) -> Int { bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        func le(_ offset: Int, _ count: Int) -> Int { bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) } }
        if let png = pngSize(data) {
            (format, width, height) = ("png", png.width, png.height)
        } else if bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            // Markers from SOI on: the first SOFn (C0–CF but C4, C8, CC) holds height then width.
            var offset = 2
            while offset + 9 < bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    (format, width, height) = ("jpeg", be(offset + 7, 2), be(offset + 5, 2))
                    return
                }
                offset += 2 + be(offset + 2, 2)
            }
            return nil
        } else if bytes.count > 30, bytes[0..<4] == Array("RIFF".utf8)[...], bytes[8..<12] == Array("WEBP".utf8)[...] {
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8X": (format, width, height) = ("webp", le(24, 3) + 1, le(27, 3) + 1)
            case "VP8 ": (format, width, height) = ("webp", le(26, 2) & 0x3FFF, le(28, 2) & 0x3FFF)
            case "VP8L":
                let bits = le(21, 4)
                (format, width, height) = ("webp", (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
            default: return nil
            }
        } else if bytes.count > 12, bytes[4..<8] == Array("ftyp".utf8)[...], bytes[8..<12] == Array("avif".utf8)[...],
                  let ispe = Self.find(Array("ispe".utf8), in: bytes), ispe + 16 <= bytes.count {
            // `ispe`: version and flags (4 bytes), then width and height (32 bits each).
            (format, width, height) = ("avif", be(ispe + 8, 4), be(ispe + 12, 4))
        } else {
            return nil
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
