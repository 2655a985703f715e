/// A SHA-256 in hex packed into four words. Ordered like its hex text (the first digit is the
/// top nibble of the first word), so sorting packed hashes sorts their text.
public struct PackedHash: Hashable, Comparable, Sendable {
    private var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0

    /// Packs exactly 64 lower-case hex digits; nil for anything else.
    init?(hex bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 64, let a = Self.word(bytes, 0), let b = Self.word(bytes, 16),
              let c = Self.word(bytes, 32), let d = Self.word(bytes, 48) else { return nil }
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The first byte: the value of the first two hex digits, the fan-out folder's name.
    var firstByte: UInt8 { UInt8(truncatingIfNeeded: a >> 56) }

    /// The first sixteen hex digits' value: hashes whose values differ sort as these do.
    var leadingWord: UInt64 { a }

    /// The first four hex digits' value: sorted hashes are in the order of these too.
    var firstTwoBytes: Int { Int(truncatingIfNeeded: a >> 48) }

    public static func < (lhs: PackedHash, rhs: PackedHash) -> Bool {
        (lhs.a, lhs.b, lhs.c, lhs.d) < (rhs.a, rhs.b, rhs.c, rhs.d)
    }

    /// Appends the 64 hex digits.
    func appendHex(to bytes: inout [UInt8]) {
        forEachHexDigit { bytes.append($0) }
    }

    /// The 64 hex digits, first to last.
    func forEachHexDigit(_ body: (UInt8) -> Void) {
        func digits(of word: UInt64) {
            for index in 0..<16 {
                body(Self.digit(UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * index)) & 15))
            }
        }
        digits(of: a)
        digits(of: b)
        digits(of: c)
        digits(of: d)
    }

    static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Exactly 16 lower-case hex digits (a feed key) as one word; nil for anything else.
    static func word(hex bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        bytes.count == 16 ? word(bytes, 0) : nil
    }

    /// Sixteen hex digits from `start` as one word. A table lookup per digit, no branch: hex
    /// digits are random, and 1.6 million of them per prune made a branchy version mispredict
    /// its way to several times the cost.
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt64? {
        var word: UInt64 = 0
        var invalid: UInt8 = 0
        nibbles.withUnsafeBufferPointer { table in
            for index in start..<start + 16 {
                let nibble = table[Int(bytes[index])]
                invalid |= nibble
                word = word << 4 | UInt64(nibble & 15)
            }
        }
        return invalid & 0x80 == 0 ? word : nil
    }

    /// Each byte's value as a hex digit (`0`-`9`, `a`-`f`); 0x80 marks any other byte.
    private static let nibbles: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0x80
        }
    }

    /// SHA-256 bits are uniform: one word of them spreads a hash table as well as all four.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(a)
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place when the string is native.
    func withUTF8Bytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
