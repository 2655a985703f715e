/// RFC 8259 wants UTF-8, but `JSONDecoder` also read UTF-16 and UTF-32, told apart by a byte-order
/// mark or by the zero bytes around the first ASCII characters (RFC 4627, §3). Such text is turned
/// into UTF-8 before `JSONReader` sees it, so documents that were read before still are. It costs
/// UTF-8 documents a look at four bytes.
enum JSONTextEncoding: String {
    case utf16LE = "UTF-16LE", utf16BE = "UTF-16BE", utf32LE = "UTF-32LE", utf32BE = "UTF-32BE"

    /// The encoding of `bytes[range]` when it is not UTF-8, and how many bytes its mark takes.
    static func detect(_ bytes: [UInt8], in range: Range<Int>) -> (encoding: JSONTextEncoding, markLength: Int)? {
        let head = bytes[range].prefix(4)
        let byte = { (offset: Int) -> UInt8? in offset < head.count ? head[head.startIndex + offset] : nil }
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BE, 4)
        // JSONDecoder took `FF FE 00 00` for UTF-16LE's mark too, not UTF-32LE's.
        case (0xFE, 0xFF, _, _): return (.utf16BE, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LE, 2)
        case (0x00, 0x00, 0x00, .some(let fourth)) where fourth != 0: return (.utf32BE, 0)
        case (.some(let first), 0x00, 0x00, 0x00) where first != 0: return (.utf32LE, 0)
        case (0x00, .some(let second), 0x00, _) where second != 0: return (.utf16BE, 0)
        case (.some(let first), 0x00, .some(let third), 0x00) where first != 0 && third != 0: return (.utf16LE, 0)
        case (.some(let first), 0x00, nil, nil) where first != 0: return (.utf16LE, 0)
        case (0x00, .some(let second), nil, nil) where second != 0: return (.utf16BE, 0)
        default: return nil
        }
    }

    /// The text after the mark as UTF-8, or nil when it is not valid in this encoding.
    func utf8(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let width = self == .utf16LE || self == .utf16BE ? 2 : 4
        guard bytes.count % width == 0 else { return nil }
        let bigEndian = self == .utf16BE || self == .utf32BE
        let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: width).map { start in
            (0..<width).reduce(UInt32(0)) { value, offset in
                value | UInt32(bytes[start + (bigEndian ? width - 1 - offset : offset)]) << (8 * offset)
            }
        }
        if width == 2 {
            return String(validating: units.map { UInt16($0) }, as: UTF16.self).map { Array($0.utf8) }
        }
        var scalars = String.UnicodeScalarView()
        for unit in units {
            guard let scalar = Unicode.Scalar(unit) else { return nil }
            scalars.append(scalar)
        }
        return Array(String(scalars).utf8)
    }
}
