/// Blanks a credential in a message that may quote it (a server's error text, libcurl's error
/// buffer), without touching unrelated text that happens to contain the same characters: with a
/// one-letter secret `y`, "Could not resolve host: my-bucket" stays whole.
///
/// Replaced: the value after a credential's name (`Credential=`, `Signature=`, `X-Amz-Signature=`,
/// `X-Amz-Security-Token=`, an `Authorization:` header), a URL's user info, and the secret itself
/// (plain or percent-encoded) where it stands as a whole token, not glued to letters, digits or
/// `-_+`. A secret of `wholeWordOnlyBelow` characters or more cannot occur by chance, so it is
/// blanked wherever it occurs.
public enum SecretRedaction {
    public static let mark = "(redacted)"
    static let wholeWordOnlyBelow = 16
    static let credentialNames = ["x-amz-credential=", "x-amz-signature=", "x-amz-security-token=", "credential=", "signature="]
    static let headerNames = ["authorization:", "x-amz-security-token:"]

    public static func redacting(_ secret: String, in text: String) -> String {
        var result = credentialValuesBlanked(text)
        guard !secret.isEmpty else { return result }
        for form in Set([secret, percentEncoded(secret)]) {
            result = occurrencesBlanked(form, in: result, anywhere: form.count >= wholeWordOnlyBelow)
        }
        return result
    }

    /// `text` with the values at credential positions blanked, whatever they are.
    public static func credentialValuesBlanked(_ text: String) -> String {
        let chars = Array(text)
        var index = 0
        var output: [Character] = []
        while index < chars.count {
            if let name = headerNames.first(where: { matches($0, in: chars, at: index) }) {
                output += chars[index..<index + name.count]
                index += name.count
                while index < chars.count, chars[index] == " " { output.append(" "); index += 1 }
                let end = chars[index...].firstIndex(where: \.isNewline) ?? chars.count
                if end > index { output += mark }
                index = end
            } else if let name = credentialNames.first(where: { matches($0, in: chars, at: index) && startsWord(chars, index) }) {
                output += chars[index..<index + name.count]
                index += name.count
                let end = chars[index...].firstIndex(where: endsValue) ?? chars.count
                if end > index { output += mark }
                index = end
            } else if matches("://", in: chars, at: index), let at = userInfoEnd(chars, from: index + 3) {
                output += "://" + mark + "@"
                index = at + 1
            } else {
                output.append(chars[index])
                index += 1
            }
        }
        return String(output)
    }

    private static func occurrencesBlanked(_ secret: String, in text: String, anywhere: Bool) -> String {
        let chars = Array(text)
        let needle = Array(secret)
        var output: [Character] = []
        var index = 0
        while index < chars.count {
            if index + needle.count <= chars.count, chars[index..<index + needle.count].elementsEqual(needle),
               anywhere || (startsWord(chars, index) && !isWordCharacter(chars, index + needle.count)) {
                output += mark
                index += needle.count
            } else {
                output.append(chars[index])
                index += 1
            }
        }
        return String(output)
    }

    private static func matches(_ name: String, in chars: [Character], at index: Int) -> Bool {
        let name = Array(name)
        guard index + name.count <= chars.count else { return false }
        return zip(chars[index..<index + name.count], name).allSatisfy { $0.lowercased() == String($1) }
    }

    private static func startsWord(_ chars: [Character], _ index: Int) -> Bool {
        !isWordCharacter(chars, index - 1)
    }

    private static func isWordCharacter(_ chars: [Character], _ index: Int) -> Bool {
        guard chars.indices.contains(index) else { return false }
        let char = chars[index]
        return char.isLetter || char.isNumber || "-_+".contains(char)
    }

    private static func endsValue(_ char: Character) -> Bool {
        char.isWhitespace || "&,;\"'<>".contains(char)
    }

    /// The `@` ending a URL's user info, when the authority after `://` has one.
    private static func userInfoEnd(_ chars: [Character], from start: Int) -> Int? {
        var index = start
        while index < chars.count, !chars[index].isWhitespace, !"/?#\"'<>".contains(chars[index]) {
            if chars[index] == "@" { return index > start ? index : nil }
            index += 1
        }
        return nil
    }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let char = Character(Unicode.Scalar(byte))
            if byte < 0x80, char.isLetter || char.isNumber || "-_.~".contains(char) {
                result.append(char)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
