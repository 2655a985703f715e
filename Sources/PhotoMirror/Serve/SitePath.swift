/// A request path as cache-relative segments, or nil when it must not be served. Each
/// segment is percent-decoded on its own, so an encoded slash (`%2f`) or dot-dot (`%2e%2e`)
/// can never join or climb segments. No segment may start with a dot: that refuses `.`, `..`,
/// hidden files and writers' `.tmp-` files in one rule.
public struct SitePath: Equatable, Sendable {
    public let segments: [String]
    /// The request ended in `/` (or was `/`): it names a folder.
    public let namesFolder: Bool

    public var relative: String { segments.joined(separator: "/") }

    public init?(raw: String) {
        var path = Substring(raw)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard path.hasPrefix("/") else { return nil }
        var parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        namesFolder = parts.last?.isEmpty ?? true
        if namesFolder { parts.removeLast() }
        var segments: [String] = []
        for part in parts {
            guard let segment = Self.decode(part), !segment.isEmpty, !segment.hasPrefix("."),
                  !segment.contains("/"), !segment.contains("\0"), !segment.contains("\\")
            else { return nil }
            segments.append(segment)
        }
        self.segments = segments
    }

    init(segments: [String], namesFolder: Bool) {
        self.segments = segments
        self.namesFolder = namesFolder
    }

    /// Strict percent-decoding: a `%` must be followed by two hex digits, and the result must
    /// be UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
