extension FeedText {
    /// RSS-style `address (Name)` → `Name`. Flickr sends `nobody@flickr.com ("Chris Bloom")` (2017)
    /// and `nobody@flickr.com (sweetsoursavory)` (2015); it never publishes a real address, and we
    /// do not keep a bare address as a display name either.
    static func authorName(from author: String) -> String? {
        var bytes = author
        return bytes.withUTF8 { $0.allSatisfy { $0 < 0x80 } } ? asciiAuthorName(author) : authorNameByCharacters(author)
    }

    /// The rule on Characters, for any text.
    static func authorNameByCharacters(_ author: String) -> String? {
        let trimmed = trimmingWhitespaces(Substring(author))
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            return trimmed.isEmpty || trimmed.contains("@") ? nil : trimmed
        }
        var name = trimmingWhitespaces(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name.isEmpty ? nil : name
    }

    /// The same rule on bytes, for ASCII text (nearly every author), where it costs a tenth: there
    /// each Character is one byte (`\r\n` aside, which no step here can tell from two), and tab
    /// and space are the only `.whitespaces`.
    static func asciiAuthorName(_ author: String) -> String? {
        var author = author
        return author.withUTF8 { bytes in
            let trimmed = trimmingTabsAndSpaces(bytes[...])
            guard let open = trimmed.firstIndex(of: UInt8(ascii: "(")), trimmed.last == UInt8(ascii: ")") else {
                return trimmed.isEmpty || trimmed.contains(UInt8(ascii: "@")) ? nil : String(decoding: trimmed, as: UTF8.self)
            }
            var name = trimmingTabsAndSpaces(trimmed[(open + 1)..<(trimmed.endIndex - 1)])
            if name.count >= 2, name.first == UInt8(ascii: "\""), name.last == UInt8(ascii: "\"") {
                name = name.dropFirst().dropLast()
            }
            return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
        }
    }

    private static func trimmingTabsAndSpaces(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    /// `text.trimmingCharacters(in: .whitespaces)` without the bridge to `NSString`, which cost
    /// more than the rest of an item's mapping. Trims Unicode scalars, as that does.
    static func trimmingWhitespaces(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// Membership in `CharacterSet.whitespaces` as Foundation on Linux defines it: tab and the
    /// space separators (Zs), plus U+200B ZERO WIDTH SPACE, which CoreFoundation's table keeps.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
