extension JSONReader {
    /// A string token; the cursor is on its opening quote. Strict: raw control characters,
    /// invalid UTF-8 and unpaired UTF-16 surrogates are errors, as they were for `JSONDecoder`.
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        var runStart = index
        var unescaping = false
        while true {
            try skipPlainRun()
            guard index < end else { throw failure("unterminated string", at: open) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\""), !unescaping {
                // The common case: no escapes, the string is the bytes as they are.
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20 else {
                throw failure("unescaped control character 0x\(JSONSyntaxError.hex(byte)) in a string")
            }
            if !unescaping {
                scratch.removeAll(keepingCapacity: true)
                unescaping = true
            }
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            try unescape(inStringAt: open)
            runStart = index
        }
    }

    /// Steps over a string token as strictly as `string()` reads one, without making it.
    mutating func skipString() throws(JSONSyntaxError) {
        let open = index
        index += 1
        while true {
            try skipPlainRun()
            guard index < end else { throw failure("unterminated string", at: open) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            guard byte >= 0x20 else {
                throw failure("unescaped control character 0x\(JSONSyntaxError.hex(byte)) in a string")
            }
            scratch.removeAll(keepingCapacity: true)
            try unescape(inStringAt: open)
        }
    }

    /// Steps over bytes that stand for themselves, stopping at a quote, a backslash, a control
    /// character or the end. Strings are most of a feed's bytes, so runs of plain ASCII are
    /// skipped eight bytes at a time; any other byte is looked at on its own.
    private mutating func skipPlainRun() throws(JSONSyntaxError) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        while true {
            while end - index >= 8, !Self.needsALook(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            guard index < end else { return }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return }
            if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash, below 0x20 or above 0x7F.
    /// `(v - 0x01…01) & ~v & 0x80…80` is non-zero exactly when some byte of `v` is below the
    /// subtrahend's byte (the classic "has a zero byte" test); a borrow can only flag bytes above
    /// one that really matched, so the answer for the word as a whole is exact.
    @inline(__always) private static func needsALook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\""))), backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let found = (quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word | word
        return found & highBits != 0
    }

    /// Steps over one multi-byte UTF-8 sequence that RFC 3629 allows (no overlong forms, no
    /// encoded surrogates, nothing past U+10FFFF), so the `String`s made from the bytes never
    /// hold replacement characters the feed did not send.
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[index]
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw invalidUTF8()
        }
        guard end - index >= length, second.contains(bytes[index + 1]) else { throw invalidUTF8() }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { throw invalidUTF8() }
        index += length
    }

    private func invalidUTF8() -> JSONSyntaxError {
        failure("invalid UTF-8 in a string (byte 0x\(JSONSyntaxError.hex(bytes[index])))")
    }

    /// One escape sequence, appended to `scratch` as UTF-8; the cursor is on the backslash.
    private mutating func unescape(inStringAt open: Int) throws(JSONSyntaxError) {
        let backslash = index
        guard index + 1 < end else { throw failure("unterminated string", at: open) }
        let code = bytes[index + 1]
        index += 2
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(code)
        case UInt8(ascii: "'"): scratch.append(code)  // Flickr's invalid `\'`, see the type's comment.
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): scratch.append(contentsOf: try unicodeEscape(at: backslash).utf8)
        default:
            let shown = (0x21...0x7E).contains(code) ? "'\\\(Character(Unicode.Scalar(code)))'"
                                                      : "'\\' followed by byte 0x\(JSONSyntaxError.hex(code))"
            throw failure("invalid escape \(shown) in a string", at: backslash)
        }
    }

    /// `\uXXXX`, or a `\uD83D\uDE00` surrogate pair; the cursor is after the first `\u`.
    private mutating func unicodeEscape(at backslash: Int) throws(JSONSyntaxError) -> Unicode.Scalar {
        let unit = try hexQuad(escapeAt: backslash)
        if (0xDC00...0xDFFF).contains(unit) {
            throw failure("unpaired UTF-16 low surrogate \\u\(Self.hex(unit)) in a string", at: backslash)
        }
        guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit) ?? "\u{FFFD}" }
        let second = index
        guard end - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw failure("unpaired UTF-16 high surrogate \\u\(Self.hex(unit)) in a string (no \\u low surrogate follows)",
                          at: backslash)
        }
        index += 2
        let low = try hexQuad(escapeAt: second)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw failure("UTF-16 high surrogate \\u\(Self.hex(unit)) followed by \\u\(Self.hex(low)), not by a low surrogate",
                          at: backslash)
        }
        // Every high/low pair maps into U+10000...U+10FFFF, so the fallback is unreachable.
        return Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00)) ?? "\u{FFFD}"
    }

    private mutating func hexQuad(escapeAt backslash: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape in a string (expected 4 hex digits)", at: backslash)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
