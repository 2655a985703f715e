extension FeedText {
    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)` without the bridge to `NSString`,
    /// which was a sixth of reading a feed of HTML descriptions: every title, description and URL
    /// is trimmed. Trims Unicode scalars, as that does; `text` itself when there is nothing to trim.
    static func trimmingWhitespacesAndNewlines(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let head = scalars.first, let tail = scalars.last else { return text }
        if !isWhitespaceOrNewline(head), !isWhitespaceOrNewline(tail) { return text }
        guard let first = scalars.firstIndex(where: { !isWhitespaceOrNewline($0) }),
              let last = scalars.lastIndex(where: { !isWhitespaceOrNewline($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// Membership in `CharacterSet.whitespacesAndNewlines`: `whitespaces` (see `isWhitespace`)
    /// and the newlines U+000A–U+000D, U+0085, U+2028 and U+2029.
    static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: isWhitespace(scalar)
        }
    }
}
