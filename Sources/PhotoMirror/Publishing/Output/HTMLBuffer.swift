/// The bytes of a gallery page as it is written. Pages are built by appending UTF-8 straight
/// into one array: a prune republishes up to 100 000 items, where string interpolation and
/// Foundation's encoders cost seconds.
///
/// Two kinds of append keep the trust boundary visible: `markup` is ours (tags, attributes we
/// compose, already escaped values), `text` is anything a feed wrote and is always escaped.
struct HTMLBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The page as a string, for tests and callers that need text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func markup(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func markup(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func number(_ value: Int) {
        DecimalDigits.append(value, to: &bytes)
    }

    /// Escapes `& < > " '`, enough for element content and quoted attribute values.
    mutating func text(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            var copied = 0
            for index in 0..<utf8.count {
                // All five specials are below 0x3F: one compare skips almost every byte.
                let byte = utf8[index]
                guard byte <= 0x3E, let entity = Self.entity(for: byte) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<index]))
                entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
                copied = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied...]))
        }
    }

    private static func entity(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }
}

/// Decimal digits of an integer appended to UTF-8 bytes, without a String in between.
enum DecimalDigits {
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
