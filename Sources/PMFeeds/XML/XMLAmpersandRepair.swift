import Foundation

/// Rewrites a UTF-8 document's `&` references before libxml2 reads it.
///
/// Always: an HTML5 name (`&nbsp;`, `&eacute;`) that the document's DTD does not declare becomes
/// the equivalent character reference, padded with zeros to the name's length where it fits so
/// libxml2's columns still match the document. A parser hook cannot do this: libxml2 2.9 copies
/// only the first byte of a predefined entity's text into an attribute value.
///
/// With `repair`, for the second reading of a malformed document: a bare `&` (not starting
/// `&name;` or `&#…;`) and the `&` of an undeclared name become `&#38;`, the five XML names become
/// character references, a `<` that cannot open markup becomes `&#60;`, and C0 control characters
/// XML forbids are dropped. Recovering libxml2 drops every entity reference after its first error,
/// `&amp;` included, but keeps character references, so text survives only in that form.
///
/// Comments, CDATA sections, processing instructions and the document type declaration are
/// copied as they are.
enum XMLAmpersandRepair {
    struct Rewritten {
        var bytes: [UInt8]
        /// Bare `&`s (and `&` of undeclared names) escaped; only with `repair`.
        var escapedAmpersands = 0
    }

    static func rewrite(_ bytes: [UInt8], repair: Bool) -> Rewritten {
        guard repair || memchr(bytes, Int32(ampersand), bytes.count) != nil else { return Rewritten(bytes: bytes) }
        var result = Rewritten(bytes: [])
        var declared: Set<String> = []
        var index = 0
        // Bytes before `flushed` are in `result`; runs that need no change are copied in one go
        // when the next replacement comes, and not at all when none does.
        var flushed = 0
        var changed = false
        var finder = MarkupFinder(controls: repair)
        func replace(upTo end: Int, with replacement: some Sequence<UInt8>) {
            if !changed {
                changed = true
                result.bytes.reserveCapacity(bytes.count + bytes.count / 16)
            }
            result.bytes.append(contentsOf: bytes[flushed..<index])
            result.bytes.append(contentsOf: replacement)
            index = end
            flushed = end
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lessThan {
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                let declaration = next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
                if declaration, let end = end(of: "<!--", "-->", in: bytes, at: index)
                    ?? end(of: "<![CDATA[", "]]>", in: bytes, at: index)
                    ?? end(of: "<?", "?>", in: bytes, at: index) {
                    index = end
                } else if declaration, starts(bytes, "<!DOCTYPE", at: index) {
                    let end = doctypeEnd(bytes, from: index)
                    declared.formUnion(declaredEntities(bytes[index..<end]))
                    index = end
                } else if repair, !opensMarkup(bytes, index + 1) {
                    replace(upTo: index + 1, with: "&#60;".utf8)
                } else {
                    index += 1
                }
            } else if byte == ampersand {
                if !repair, let end = predefinedEnd(bytes, at: index) {
                    index = end
                    continue
                }
                switch reference(in: bytes, at: index) {
                case .character(let end):
                    index = end
                case .predefined(let name, let end):
                    if repair, let value = predefined[name] {
                        replace(upTo: end, with: characterReferences(value, length: end - index))
                    } else {
                        index = end
                    }
                case .named(let name, let end):
                    if declared.contains(name) {
                        index = end
                    } else if let value = HTML5Entities.table[name] {
                        replace(upTo: end, with: characterReferences(value, length: end - index))
                    } else if repair {
                        result.escapedAmpersands += 1
                        replace(upTo: index + 1, with: "&#38;".utf8)
                    } else {
                        index = end
                    }
                case .bare:
                    if repair {
                        result.escapedAmpersands += 1
                        replace(upTo: index + 1, with: "&#38;".utf8)
                    } else {
                        index += 1
                    }
                }
            } else if repair, byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                replace(upTo: index + 1, with: EmptyCollection())
            } else {
                index = finder.next(in: bytes, from: index + 1)
            }
        }
        guard changed else { return Rewritten(bytes: bytes, escapedAmpersands: result.escapedAmpersands) }
        result.bytes.append(contentsOf: bytes[flushed...])
        return result
    }

    private static let ampersand = UInt8(ascii: "&"), lessThan = UInt8(ascii: "<")

    /// Finds the next byte the rewrite looks at. Nearly every byte of a feed is plain text, so
    /// each of `<` and `&` is found with `memchr` and its offset kept until the rewrite passes
    /// it: markup is dense (a tag every few dozen bytes) while `&` may not come for pages. The
    /// repair pass also stops at C0 controls, which it drops, so it tests byte by byte.
    private struct MarkupFinder {
        let controls: Bool
        private var lessThanAt = -1, ampersandAt = -1

        init(controls: Bool) {
            self.controls = controls
        }

        /// The offset of the next byte to look at, at or after `start` (the end when none).
        mutating func next(in bytes: [UInt8], from start: Int) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                guard !controls else {
                    return buffer[start...].firstIndex { $0 == lessThan || $0 == ampersand || $0 < 0x20 } ?? buffer.count
                }
                if lessThanAt < start { lessThanAt = Self.find(lessThan, in: buffer, from: start) }
                if ampersandAt < start { ampersandAt = Self.find(ampersand, in: buffer, from: start) }
                return min(lessThanAt, ampersandAt)
            }
        }

        private static func find(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            guard start < buffer.count, let base = buffer.baseAddress,
                  let found = memchr(base + start, Int32(byte), buffer.count - start) else { return buffer.count }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    static let predefined: [String: [Unicode.Scalar]] = ["amp": ["&"], "lt": ["<"], "gt": [">"], "quot": ["\""], "apos": ["'"]]
    /// Compared as bytes: a feed of escaped HTML has tens of these per item.
    private static let predefinedNames: [(name: String, bytes: [UInt8])] =
        ["lt", "gt", "amp", "quot", "apos"].map { ($0, Array($0.utf8)) }

    /// The end of `&lt;`, `&gt;`, `&amp;`, `&quot;` or `&apos;` at `start`, which only a repair
    /// changes: escaped markup is made of them, tens in each item of a feed of HTML.
    static func predefinedEnd(_ bytes: [UInt8], at start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            for known in predefinedNames {
                let semicolon = start + 1 + known.bytes.count
                guard semicolon < buffer.count, buffer[semicolon] == UInt8(ascii: ";"),
                      buffer[(start + 1)..<semicolon].elementsEqual(known.bytes) else { continue }
                return semicolon + 1
            }
            return nil
        }
    }

    private enum Reference {
        /// `&#N;` or `&#xH;`, ending before `end`.
        case character(end: Int)
        /// One of XML's own five (`&lt;`, `&amp;`…), recognised without making a String of it.
        case predefined(String, end: Int)
        case named(String, end: Int)
        case bare
    }

    private static func reference(in bytes: [UInt8], at start: Int) -> Reference {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            index += 1
            let hex = index < bytes.count && bytes[index] == UInt8(ascii: "x")
            if hex { index += 1 }
            let digits = index
            while index < bytes.count, isDigit(bytes[index], hex: hex) { index += 1 }
            guard index > digits, index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return .bare }
            return .character(end: index + 1)
        }
        guard index < bytes.count, isNameStart(bytes[index]) else { return .bare }
        while index < bytes.count, isNameStart(bytes[index]) || isDigit(bytes[index], hex: false)
                || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return .bare }
        let name = bytes[(start + 1)..<index]
        if name.count <= 4, let known = predefinedNames.first(where: { $0.bytes.elementsEqual(name) }) {
            return .predefined(known.name, end: index + 1)
        }
        return .named(String(decoding: name, as: UTF8.self), end: index + 1)
    }

    /// `&#NNN;` per scalar; a single one is padded with zeros to `length` bytes when shorter.
    static func characterReferences(_ scalars: [Unicode.Scalar], length: Int) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in scalars {
            let digits = String(scalar.value)
            let zeros = scalars.count == 1 ? max(0, length - 3 - digits.count) : 0
            out.append(contentsOf: "&#\(String(repeating: "0", count: zeros))\(digits);".utf8)
        }
        return out
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8, hex: Bool) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            || hex && (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f")
    }

    /// True when the byte after a `<` can start a tag, an end tag, a comment or a PI.
    static func opensMarkup(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        return isNameStart(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }

    static func starts(_ bytes: [UInt8], _ literal: String, at index: Int) -> Bool {
        bytes[index...].starts(with: literal.utf8)
    }

    /// The offset past `close` when `open` starts at `index` (the end of `bytes` if never closed).
    static func end(of open: String, _ close: String, in bytes: [UInt8], at index: Int) -> Int? {
        guard starts(bytes, open, at: index) else { return nil }
        let closing = Array(close.utf8)
        var cursor = index + open.utf8.count
        while cursor + closing.count <= bytes.count {
            if bytes[cursor] == closing[0], bytes[cursor...].starts(with: closing) { return cursor + closing.count }
            cursor += 1
        }
        return bytes.count
    }

    /// The offset past the `>` that closes a `<!DOCTYPE`, skipping its internal subset's quoted
    /// literals and comments.
    static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 2, inSubset = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index += 1
                while index < bytes.count, bytes[index] != byte { index += 1 }
            } else if inSubset, let end = end(of: "<!--", "-->", in: bytes, at: index) {
                index = end
                continue
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// Names of the general entities a document type declaration declares.
    static func declaredEntities(_ doctype: ArraySlice<UInt8>) -> Set<String> {
        var names: Set<String> = [], index = doctype.startIndex
        let keyword = Array("<!ENTITY".utf8)
        while index < doctype.endIndex {
            guard doctype[index...].starts(with: keyword) else { index += 1; continue }
            index += keyword.count
            while index < doctype.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(doctype[index]) { index += 1 }
            let start = index
            while index < doctype.endIndex, ![0x20, 0x09, 0x0A, 0x0D, 0x22, 0x27, 0x3E].contains(doctype[index]) { index += 1 }
            if index > start, doctype[start] != UInt8(ascii: "%") {
                names.insert(String(decoding: doctype[start..<index], as: UTF8.self))
            }
        }
        return names
    }
}
