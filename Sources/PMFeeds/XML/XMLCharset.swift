import CXML2
import Foundation

/// Turns an XML document's bytes into UTF-8, choosing the charset as RFC 7303 does: byte-order
/// mark, then the HTTP `Content-Type` charset, then the XML declaration (UTF-16 and UTF-32 without
/// a mark are told apart by their zero bytes, XML 1.0 appendix F). libxml2 is then handed UTF-8
/// and told to ignore the declaration, so the choice is made once, here, and never refused:
/// undeclared bytes that are not UTF-8, and bytes the named charset rejects, are read as
/// windows-1252, which accepts every byte, as browsers and feedparser do.
enum XMLCharset {
    struct Decoded {
        /// Valid UTF-8 without a byte-order mark or leading whitespace.
        var utf8: [UInt8]
        var warnings: [String]
    }

    static func decode(_ bytes: [UInt8], contentType: String?) -> Decoded {
        var warnings: [String] = []
        func finish(_ utf8: [UInt8]) -> Decoded { Decoded(utf8: trimmedStart(utf8), warnings: warnings) }

        if let (layout, markLength) = byteOrderMark(bytes) {
            return finish(convert(bytes[markLength...], layout.charset, source: "byte-order mark", &warnings))
        }
        let unitLayout = zeroByteLayout(bytes)
        if let label = httpCharset(contentType) {
            switch Charset(label: label, layout: unitLayout) {
            case let charset? where unitLayout != nil && !charset.isWide:
                warnings.append("charset: the HTTP Content-Type names \(charset.name) but the document is laid out "
                                + "as \(unitLayout!.charset.name); read as \(unitLayout!.charset.name)")
            case .utf8? where firstInvalidUTF8(bytes) == nil:
                return finish(bytes)  // as it is: a feed of tens of MB is not copied
            case let charset?:
                return finish(convert(bytes[...], charset, source: "HTTP Content-Type charset", &warnings))
            case nil:
                warnings.append("charset: the HTTP Content-Type names unknown charset \"\(printable(label))\"; ignored")
            }
        }
        if let unitLayout {
            return finish(convert(bytes[...], unitLayout.charset, source: "document's zero bytes", &warnings))
        }
        let body = trimmedStart(bytes)
        if let declaration = declaration(body) {
            switch Charset(label: declaration.name, layout: nil) {
            case let charset? where charset.isWide:
                break  // a UTF-16 label on 8-bit bytes: the bytes win, as they do in libxml2
            case .utf8? where firstInvalidUTF8(body[declaration.end...]) == nil:
                return finish(body)  // as it is: a feed of tens of MB is not copied
            case let charset?:
                // Bytes up to the name's closing quote were read as ASCII to find it; libxml2 switches
                // there too, which is what lets an ASCII declaration open an EBCDIC document.
                let head = body[..<declaration.end]
                let rest = convert(body[declaration.end...], charset, source: "XML declaration", &warnings)
                return finish(Array(head) + rest)
            case nil:
                warnings.append("charset: the XML declaration names unknown charset \"\(printable(declaration.name))\"; ignored")
            }
        }
        if let offset = firstInvalidUTF8(body) {
            warnings.append("charset: no charset declared and the bytes are not UTF-8 (\(describe(body, offset))); "
                            + "read as windows-1252")
            return finish(windows1252(body[...]))
        }
        return finish(body)
    }

    /// True when the first character that is not blank is `<`, in UTF-8 (with or without its mark),
    /// UTF-16 or UTF-32: the detector sends such bodies to the XML reader.
    static func startsWithMarkup(_ bytes: [UInt8]) -> Bool {
        var width = 1, bigEndian = false, index = 0
        if let (layout, markLength) = byteOrderMark(bytes) {
            (width, bigEndian, index) = (layout.width, layout.bigEndian, markLength)
        } else if let layout = zeroByteLayout(bytes) {
            (width, bigEndian) = (layout.width, layout.bigEndian)
        }
        while index + width <= bytes.count {
            var unit: UInt32 = 0
            for offset in 0..<width {
                unit |= UInt32(bytes[index + (bigEndian ? width - 1 - offset : offset)]) << (8 * offset)
            }
            if unit == 0x3C { return true }
            guard [0x20, 0x09, 0x0A, 0x0D].contains(unit) else { return false }
            index += width
        }
        return false
    }

    /// The Unicode forms a mark or zero bytes reveal.
    enum Layout {
        case utf8, utf16LE, utf16BE, utf32LE, utf32BE

        var width: Int { self == .utf8 ? 1 : self == .utf16LE || self == .utf16BE ? 2 : 4 }
        var bigEndian: Bool { self == .utf16BE || self == .utf32BE }
        var charset: Charset {
            switch self {
            case .utf8: .utf8
            case .utf16LE: .libxml2("UTF-16LE")
            case .utf16BE: .libxml2("UTF-16BE")
            case .utf32LE: .libxml2("UTF-32LE")
            case .utf32BE: .libxml2("UTF-32BE")
            }
        }
    }

    static func byteOrderMark(_ bytes: [UInt8]) -> (Layout, Int)? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BE, 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LE, 4) }  // U+0000 cannot start XML
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        return nil
    }

    /// UTF-16 or UTF-32 without a mark: an ASCII character padded with zero bytes comes first.
    static func zeroByteLayout(_ bytes: [UInt8]) -> Layout? {
        guard bytes.count >= 2 else { return nil }
        let quad = bytes.count >= 4 ? Array(bytes[0..<4]) : nil
        if let quad, quad[0] != 0, quad[0] < 0x80, quad[1] == 0, quad[2] == 0, quad[3] == 0 { return .utf32LE }
        if let quad, quad[0] == 0, quad[1] == 0, quad[2] == 0, quad[3] != 0, quad[3] < 0x80 { return .utf32BE }
        if bytes[0] != 0, bytes[0] < 0x80, bytes[1] == 0 { return .utf16LE }
        if bytes[0] == 0, bytes[1] != 0, bytes[1] < 0x80 { return .utf16BE }
        return nil
    }

    /// A charset this reader can convert from.
    enum Charset: Equatable {
        case utf8
        /// WHATWG's decoder for the labels `windows-1252`, `iso-8859-1`, `latin1`, `us-ascii`…:
        /// feeds labelled Latin-1 use 0x80–0x9F for curly quotes and dashes.
        case windows1252
        /// A name libxml2 has a converter for (iconv, ICU or its own).
        case libxml2(String)

        init?(label: String, layout: Layout?) {
            let name = label.trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "": return nil
            case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8": self = .utf8
            case "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1",
                 "iso-ir-100", "cp819", "ibm819", "us-ascii", "ascii", "ansi_x3.4-1968", "iso-8859-1:1987":
                self = .windows1252
            case "utf-16", "utf16", "unicode", "ucs-2", "iso-10646-ucs-2":
                self = layout == .utf16LE ? .libxml2("UTF-16LE") : .libxml2("UTF-16BE")
            case "utf-32", "utf32", "ucs-4", "iso-10646-ucs-4":
                self = layout == .utf32LE ? .libxml2("UTF-32LE") : .libxml2("UTF-32BE")
            default:
                guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), XMLTranscoder(name) != nil else { return nil }
                self = .libxml2(name)
            }
        }

        var name: String {
            switch self {
            case .utf8: "UTF-8"
            case .windows1252: "windows-1252"
            case .libxml2(let name): name
            }
        }

        /// UTF-16 or UTF-32: such a charset cannot read 8-bit text and vice versa.
        var isWide: Bool {
            guard case .libxml2(let name) = self else { return false }
            let lower = name.lowercased()
            return lower.hasPrefix("utf-16") || lower.hasPrefix("utf-32")
        }
    }

    /// `bytes` as UTF-8 read in `charset`; when they are invalid for it, as UTF-8 if valid, else as
    /// windows-1252, with a warning.
    private static func convert(_ bytes: ArraySlice<UInt8>, _ charset: Charset, source: String,
                                _ warnings: inout [String]) -> [UInt8] {
        let failure: String
        switch charset {
        case .utf8:
            guard let offset = firstInvalidUTF8(bytes) else { return Array(bytes) }
            warnings.append("charset: the \(source) says UTF-8 but the bytes are not (\(describe(bytes, offset))); "
                            + "read as windows-1252")
            return windows1252(bytes)
        case .windows1252:
            return windows1252(bytes)
        case .libxml2(let name):
            guard let transcoder = XMLTranscoder(name) else { failure = "no converter"; break }
            switch transcoder.convert(bytes) {
            case .converted(let utf8): return utf8
            case .truncated(let utf8, let dropped):
                warnings.append("charset: the document ends inside a \(name) character; its last \(dropped) byte(s) were dropped")
                return utf8
            case .invalid(let offset): failure = describe(bytes, offset)
            }
        }
        if firstInvalidUTF8(bytes) == nil {
            warnings.append("charset: the bytes are not valid \(charset.name) as the \(source) says (\(failure)); read as UTF-8")
            return Array(bytes)
        }
        warnings.append("charset: the bytes are not valid \(charset.name) as the \(source) says (\(failure)); "
                        + "read as windows-1252")
        return windows1252(bytes)
    }

    /// WHATWG's windows-1252: iconv's CP1252 through libxml2, and the five bytes it leaves undefined
    /// (0x81, 0x8D, 0x8F, 0x90, 0x9D) as the C1 controls of the same value, as the standard maps them.
    static func windows1252(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        if let transcoder = XMLTranscoder("WINDOWS-1252"),
           case .converted(let utf8) = transcoder.convert(bytes, substituteLatin1: true) {
            return utf8
        }
        return Array(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })).utf8)
    }

    /// The `charset` parameter of a media type (`text/xml; charset="koi8-r"`), unquoted.
    static func httpCharset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                  pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private static func trimmedStart(_ bytes: [UInt8]) -> [UInt8] {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        return start == 0 ? bytes : Array(bytes[start...])
    }

    private static func describe(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> String {
        let index = bytes.startIndex + offset
        guard index < bytes.endIndex else { return "at offset \(offset)" }
        let hex = String(bytes[index], radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(offset)"
    }

    private static func describe(_ bytes: [UInt8], _ offset: Int) -> String { describe(bytes[...], offset) }

    private static func printable(_ label: String) -> String { FeedDetector.escaped(Array(label.utf8), limit: 40) }

    /// The encoding name of an XML declaration in its strict form,
    /// `<?xml S version Eq ('1.n'|"1.n") S encoding Eq ('EncName'|"EncName")`, and the offset just
    /// past the name's closing quote; nil for anything else.
    static func declaration(_ bytes: [UInt8]) -> (name: String, end: Int)? {
        let head = Array(bytes.prefix(256))
        var index = 0
        func skip(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard head[index...].starts(with: expected) else { return false }
            index += expected.count
            return true
        }
        func skipSpaces() -> Bool {
            let start = index
            while index < head.count, [0x20, 0x09, 0x0D, 0x0A].contains(head[index]) { index += 1 }
            return index > start
        }
        func equals() -> Bool {
            _ = skipSpaces()
            guard skip("=") else { return false }
            _ = skipSpaces()
            return true
        }
        /// A non-empty quoted value whose bytes all satisfy `allowed(byte, isFirst)`.
        func quoted(_ allowed: (UInt8, Bool) -> Bool) -> [UInt8]? {
            guard index < head.count, head[index] == 0x22 || head[index] == 0x27 else { return nil }
            let quote = head[index]
            let start = index + 1
            var end = start
            while end < head.count, head[end] != quote {
                guard allowed(head[end], end == start) else { return nil }
                end += 1
            }
            guard end < head.count, end > start else { return nil }
            index = end + 1
            return Array(head[start..<end])
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        let dot = UInt8(ascii: "."), one = UInt8(ascii: "1")
        guard skip("<?xml"), skipSpaces(), skip("version"), equals(),
              let version = quoted({ byte, _ in isDigit(byte) || byte == dot }),
              version.count >= 3, version[0] == one, version[1] == dot, version.dropFirst(2).allSatisfy(isDigit),
              skipSpaces(), skip("encoding"), equals(),
              let name = quoted({ byte, first in
                  isLetter(byte) || !first && (isDigit(byte) || byte == dot || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-"))
              }) else { return nil }
        return (String(decoding: name, as: UTF8.self), index)
    }

    /// Offset of the first byte that does not start a valid UTF-8 sequence (Swift's strict decoder:
    /// no overlong forms, surrogates or values past U+10FFFF), or nil when all of `bytes` is valid.
    static func firstInvalidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        if let found = bytes.withContiguousStorageIfAvailable(firstInvalidUTF8(in:)) { return found }
        return Array(bytes).withUnsafeBufferPointer(firstInvalidUTF8(in:))
    }

    /// Feeds are mostly ASCII: runs of it are skipped eight bytes at a time, and Swift's decoder
    /// checks only the sequences that start with a byte of 0x80 or more.
    private static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        var offset = 0
        while offset < bytes.count {
            while offset + 8 <= bytes.count,
                  base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                offset += 8
            }
            guard offset < bytes.count else { return nil }
            if bytes[offset] < 0x80 {
                offset += 1
                continue
            }
            var decoder = UTF8()
            var iterator = UnsafeBufferPointer(rebasing: bytes[offset...]).makeIterator()
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
        return nil
    }
}

