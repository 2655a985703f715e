import Foundation

/// Small text conventions several feed kinds share.
enum FeedText {
    /// Flickr's space-separated tag string; `""` is no tags.
    static func splitTags(_ tags: String?) -> [String] {
        guard var tags else { return [] }
        // ASCII tags (nearly all) split on bytes; for ASCII, `Character.isWhitespace` is exactly
        // these bytes (and `\r\n`, one Character, is two of them).
        let ascii = tags.withUTF8 { bytes -> [String]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var split: [String] = []
            var start = 0
            for (index, byte) in bytes.enumerated() where byte == 0x20 || (0x09...0x0D).contains(byte) {
                if index > start { split.append(String(decoding: bytes[start..<index], as: UTF8.self)) }
                start = index + 1
            }
            if bytes.count > start { split.append(String(decoding: bytes[start...], as: UTF8.self)) }
            return split
        }
        return ascii ?? tags.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Trimmed text, or nil when nothing but whitespace is left.
    static func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text.map(trimmingWhitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// `tags` without duplicates or blanks, first occurrence wins.
    static func uniqueTags(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        return tags.compactMap(nonBlank).filter { seen.insert($0).inserted }
    }
}
