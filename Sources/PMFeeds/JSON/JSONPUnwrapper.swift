/// Finds the JSON inside a JSONP response. (Flickr's other quirk, the invalid `\'` escape, is
/// accepted by `JSONReader` itself.)
enum JSONPUnwrapper {
    /// The JSON inside `callback( … )`, or nil when `bytes` is not JSONP. Flickr's wrapper is
    /// `jsonFlickrFeed({...})`; the payload is everything between the first `(` and the last `)`.
    /// A leading `/**/` (added by some JSONP servers against content sniffing) is tolerated.
    /// Reading starts at `offset`; the payload is a slice, not a copy, so its indices are offsets into `bytes`.
    static func unwrap(_ bytes: [UInt8], from offset: Int = 0) -> ArraySlice<UInt8>? {
        var start = skipWhitespace(bytes, from: offset)
        if bytes[start...].starts(with: Array("/*".utf8)) {
            guard let close = find(Array("*/".utf8), in: bytes, from: start + 2) else { return nil }
            start = skipWhitespace(bytes, from: close + 2)
        }
        guard start < bytes.count, isCallbackStart(bytes[start]) else { return nil }
        var cursor = start
        while cursor < bytes.count, isCallbackByte(bytes[cursor]) { cursor += 1 }
        cursor = skipWhitespace(bytes, from: cursor)
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "("),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close > cursor else { return nil }
        let trailer = bytes[(close + 1)...]
        guard trailer.allSatisfy({ isWhitespace($0) || $0 == UInt8(ascii: ";") }) else { return nil }
        return bytes[(cursor + 1)..<close]
    }

    static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        // A UTF-8 byte-order mark counts as leading noise too.
        if bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isCallbackStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }

    private static func isCallbackByte(_ byte: UInt8) -> Bool {
        isCallbackStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".")
    }
}
