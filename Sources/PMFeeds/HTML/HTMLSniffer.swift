/// Whether text that no attribute calls HTML is HTML all the same: feeds that leave Atom's `type`
/// out of `<content>` carry escaped HTML, which RFC 4287 would have read as plain text. The test
/// is feedparser's (`looks_like_html`), erring on the side of text, where a false "HTML" would turn
/// a tutorial's `<img src="…">` into an image: there must be an end tag or a character reference,
/// every tag must be an HTML element's and every named reference an HTML entity's.
enum HTMLSniffer {
    static func looksLikeHTML(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var sawEndTagOrReference = false
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<"):
                    let isEnd = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                    let name = word(bytes, from: index + (isEnd ? 2 : 1))
                    if !name.isEmpty {
                        guard HTMLElementNames.all.contains(String(decoding: name, as: UTF8.self).lowercased()) else { return false }
                        sawEndTagOrReference = sawEndTagOrReference || isEnd
                    }
                case UInt8(ascii: "&"):
                    let numeric = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "#")
                    let name = word(bytes, from: index + (numeric ? 2 : 1))
                    if !name.isEmpty, name.endIndex < bytes.count, bytes[name.endIndex] == UInt8(ascii: ";") {
                        guard numeric || HTML5Entities.table[String(decoding: name, as: UTF8.self)] != nil else { return false }
                        sawEndTagOrReference = true
                    }
                default:
                    break
                }
                index += 1
            }
            return sawEndTagOrReference
        }
    }

    /// The run of ASCII letters, digits and underscores at `start` (a regular expression's `\w`).
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: "_") || (0x30...0x39).contains(bytes[end])
                || (0x61...0x7A).contains(bytes[end] | 0x20) {
            end += 1
        }
        return bytes[min(start, bytes.count)..<min(end, bytes.count)]
    }
}
