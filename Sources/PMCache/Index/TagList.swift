import Foundation

/// `items.tags`: a JSON array of strings. Reading 100 000 items decodes as many arrays, so the
/// common shape — plain strings, no escapes — is split by hand; anything else goes to JSONDecoder.
/// Written by hand too: JSONEncoder cost a sync staging 100 000 items about a sixth of its time.
enum TagList {
    static func encode(_ tags: [String]) -> String {
        JSONStringList.encode(tags)
    }

    static func decode(_ text: String?) -> [String] {
        guard let text else { return [] }
        var copy = text
        if let tags = copy.withUTF8({ plain($0) }) { return tags }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// The strings of `["a", "b c"]`; nil for any escape or anything that is not such an array.
    static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D {
                index += 1
            }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard take(UInt8(ascii: "[")) else { return nil }
        var tags: [String] = []
        if take(UInt8(ascii: "]")) { return index == bytes.count ? tags : nil }
        repeat {
            guard take(quote) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == backslash || bytes[index] < 0x20 { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            index += 1
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        skipSpace()
        return index == bytes.count ? tags : nil
    }
}
