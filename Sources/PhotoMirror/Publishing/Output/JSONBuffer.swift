/// JSON written straight into UTF-8 bytes, for manifests of thousands of items (JSONEncoder
/// builds a tree of boxed values first and costs tens of milliseconds per thousand items).
///
/// The caller lays out the document; this type gets the escaping right (RFC 8259: `"`, `\` and
/// control characters; everything else, `/` and non-ASCII included, goes out as UTF-8).
struct JSONBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer for the next piece of a streamed document, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Punctuation, indentation and key names: ours, written as they are.
    mutating func raw(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var copied = 0
            while let special = Self.firstEscaped(in: utf8, from: copied) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<special]))
                escape(utf8[special])
                copied = special + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The offset of the first byte at or after `start` that must be escaped. Eight bytes are
    /// tested at once (most strings have no such byte: the cost is the scan), then the word
    /// that may hold one byte by byte.
    static func firstEscaped(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        if let base = utf8.baseAddress {
            while index + 8 <= utf8.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if Self.mayNeedEscaping(word) {
                    for offset in index..<(index + 8) where Self.needsEscaping(utf8[offset]) { return offset }
                }
                index += 8
            }
        }
        while index < utf8.count {
            if Self.needsEscaping(utf8[index]) { return index }
            index += 1
        }
        return nil
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any byte of `word` may be a control character, `"` or a backslash (no false negatives;
    /// "Bit Twiddling Hacks": a byte below n, or a zero byte after an XOR).
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
            || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    }

    /// A string, or `null`.
    mutating func string(_ value: String?) {
        guard let value else { return raw("null") }
        string(value)
    }

    /// A timestamp as an RFC 3339 string, or `null`.
    mutating func timestamp(_ seconds: Double?) {
        guard let seconds else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        W3CTimestamp.append(seconds, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func stringArray(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { raw(", ") }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object of string values on one line, keys sorted so the output is stable.
    mutating func stringObject(_ members: [String: String]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { raw(", ") }
            string(key)
            raw(": ")
            string(members[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"name": ` on a line of its own at `depth` (two spaces each), after a comma unless it
    /// is the object's first member.
    mutating func key(_ name: StaticString, depth: Int, first: Bool = false) {
        raw(first ? "\n" : ",\n")
        Self.indentation.withUTF8Buffer { spaces in
            if 2 * depth <= spaces.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: spaces[..<(2 * depth)]))
            } else {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
            }
        }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
    }

    /// Spaces for the usual depths, appended as one run (a manifest writes tens of keys per item).
    private static let indentation: StaticString = "                "

    mutating func member(_ name: StaticString, _ value: String?, depth: Int, first: Bool = false) {
        key(name, depth: depth, first: first)
        string(value)
    }

    mutating func member(_ name: StaticString, timestamp: Double?, depth: Int) {
        key(name, depth: depth)
        self.timestamp(timestamp)
    }

    mutating func member(_ name: StaticString, strings: [String], depth: Int) {
        key(name, depth: depth)
        stringArray(strings)
    }

    mutating func member(_ name: StaticString, stringMap: [String: String], depth: Int) {
        key(name, depth: depth)
        stringObject(stringMap)
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            hex.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xF)])
            }
        }
    }
}
