import Foundation

/// Feed strings are written by strangers: everything that reaches the page goes through here
/// (or through `HTMLBuffer.text`, which escapes the same way).
enum HTML {
    /// Escapes text for element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var buffer = HTMLBuffer(capacity: text.utf8.count)
        buffer.text(text)
        return buffer.text
    }

    /// An escaped href for a link from a feed, or nil unless it is absolute http(s):
    /// `javascript:`, `data:` and the like never become links.
    static func safeExternalLink(_ url: String?) -> String? {
        externalHTTPURL(url).map(escape)
    }

    /// A link from a feed, trimmed, when it is absolute http(s); nil otherwise.
    static func externalHTTPURL(_ url: String?) -> String? {
        guard let url = url.map(trimmingSpaces), !url.isEmpty else { return nil }
        let scheme = url.utf8.prefix(8).map { $0 | 0x20 }  // ASCII lower case; enough to compare a scheme
        guard scheme.starts(with: "http://".utf8) || scheme.starts(with: "https://".utf8) else { return nil }
        return url
    }

    /// A cache-relative path as an href: each segment percent-encoded (every byte but RFC 3986's
    /// unreserved ones and a few safe sub-delimiters), never absolute.
    static func relativeLink(_ path: String) -> String {
        let utf8 = path.utf8
        // Nearly every path (a content address) is kept as it is; the test runs on the
        // contiguous bytes when the string has them.
        let keptAsItIs = utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isKeptInLink) } ?? utf8.allSatisfy(isKeptInLink)
        if !utf8.isEmpty, utf8.first != UInt8(ascii: "/"), keptAsItIs { return path }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for segment in utf8.split(separator: UInt8(ascii: "/")) {
            if !out.isEmpty { out.append(UInt8(ascii: "/")) }
            for byte in segment {
                if byte != UInt8(ascii: "/"), isKeptInLink(byte) {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes a path segment keeps as they are; `/` only as the separator.
    private static func isKeptInLink(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    /// Leading and trailing ASCII spaces and tabs removed, without Foundation's CharacterSet
    /// (slow on Linux).
    static func trimmingSpaces(_ text: String) -> String {
        trimming(text) { $0 == 0x20 || $0 == 0x09 }
    }

    /// Leading and trailing white space and newlines removed, Unicode's included. ASCII ends
    /// (nearly every title) are checked byte by byte; only others take Foundation's slow path.
    static func trimmingWhitespace(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first >= 0x80 || last >= 0x80 {
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return trimming(text) { $0 == 0x20 || (0x09...0x0D).contains($0) }
    }

    private static func trimming(_ text: String, _ isTrimmed: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, isTrimmed(first) || isTrimmed(last) else { return text }
        guard let start = utf8.firstIndex(where: { !isTrimmed($0) }),
              let end = utf8.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(text[start...end])
    }
}
