import Testing
@testable import PMFeeds

/// XMLAmpersandRepair's `memchr` scan against the byte-at-a-time loop it replaced (that loop and
/// its reading of a reference kept here as they were; the helpers both share are the rewrite's
/// own), on documents built at random from the pieces the rewrite treats specially.
@Suite struct XMLAmpersandRepairDifferentialTests {
    enum ByteAtATimeRepair {
        struct Rewritten {
            var bytes: [UInt8]
            /// Bare `&`s (and `&` of undeclared names) escaped; only with `repair`.
            var escapedAmpersands = 0
        }

        static func rewrite(_ bytes: [UInt8], repair: Bool) -> Rewritten {
            guard repair || bytes.contains(ampersand) else { return Rewritten(bytes: bytes) }
            var result = Rewritten(bytes: [])
            var declared: Set<String> = []
            var index = 0
            // Bytes before `flushed` are in `result`; runs that need no change are copied in one go
            // when the next replacement comes, and not at all when none does.
            var flushed = 0
            var changed = false
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
                    if let end = XMLAmpersandRepair.end(of: "<!--", "-->", in: bytes, at: index)
                        ?? XMLAmpersandRepair.end(of: "<![CDATA[", "]]>", in: bytes, at: index)
                        ?? XMLAmpersandRepair.end(of: "<?", "?>", in: bytes, at: index) {
                        index = end
                    } else if XMLAmpersandRepair.starts(bytes, "<!DOCTYPE", at: index) {
                        let end = XMLAmpersandRepair.doctypeEnd(bytes, from: index)
                        declared.formUnion(XMLAmpersandRepair.declaredEntities(bytes[index..<end]))
                        index = end
                    } else if repair, !XMLAmpersandRepair.opensMarkup(bytes, index + 1) {
                        replace(upTo: index + 1, with: "&#60;".utf8)
                    } else {
                        index += 1
                    }
                } else if byte == ampersand {
                    switch reference(in: bytes, at: index) {
                    case .character(let end):
                        index = end
                    case .predefined(let name, let end):
                        if repair, let value = XMLAmpersandRepair.predefined[name] {
                            replace(upTo: end, with: XMLAmpersandRepair.characterReferences(value, length: end - index))
                        } else {
                            index = end
                        }
                    case .named(let name, let end):
                        if declared.contains(name) {
                            index = end
                        } else if let value = HTML5Entities.table[name] {
                            replace(upTo: end, with: XMLAmpersandRepair.characterReferences(value, length: end - index))
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
                    index += 1
                }
            }
            guard changed else { return Rewritten(bytes: bytes, escapedAmpersands: result.escapedAmpersands) }
            result.bytes.append(contentsOf: bytes[flushed...])
            return result
        }

        private static let ampersand = UInt8(ascii: "&"), lessThan = UInt8(ascii: "<")
        private static let predefinedNames = ["lt", "gt", "amp", "quot", "apos"]

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
                while index < bytes.count, XMLAmpersandRepair.isDigit(bytes[index], hex: hex) { index += 1 }
                guard index > digits, index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return .bare }
                return .character(end: index + 1)
            }
            guard index < bytes.count, XMLAmpersandRepair.isNameStart(bytes[index]) else { return .bare }
            while index < bytes.count, XMLAmpersandRepair.isNameStart(bytes[index]) || XMLAmpersandRepair.isDigit(bytes[index], hex: false)
                    || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return .bare }
            let name = bytes[(start + 1)..<index]
            if let known = predefinedNames.first(where: { name.elementsEqual($0.utf8) }) {
                return .predefined(known, end: index + 1)
            }
            return .named(String(decoding: name, as: UTF8.self), end: index + 1)
        }
    }

    static let pieces = ["text ", "<a>", "</a>", "<b x='&amp;'>", "&", "& ", "&amp;", "&lt;", "&quot;", "&apos;", "&gt;",
                         "&nbsp;", "&eacute;", "&copy", "&#160;", "&#x41;", "&#;", "&foo;", "&unknown;", "<", "< ",
                         "<!--", "-->", "<![CDATA[", "]]>", "<?pi ", "?>", "<!DOCTYPE d [<!ENTITY foo 'bar'>]>",
                         "\u{01}", "\u{1F}", "\u{0B}", "\t", "\n", "é", "🙂", ";", "#"]

    @Test func agreesWithTheByteAtATimeRewrite() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4000 {
            let count = Int.random(in: 0...24, using: &generator)
            let document = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(document.utf8)
            for repair in [false, true] {
                let new = XMLAmpersandRepair.rewrite(bytes, repair: repair)
                let old = ByteAtATimeRepair.rewrite(bytes, repair: repair)
                #expect(new.bytes == old.bytes && new.escapedAmpersands == old.escapedAmpersands,
                        "round \(round), repair \(repair): \(document.debugDescription)")
            }
        }
    }
}
