import Foundation

/// Small text conventions several feed kinds share.
enum FeedText {
    /// RSS-style `address (Name)` → `Name`. Flickr sends `nobody@flickr.com ("Chris Bloom")` (2017)
    /// and `nobody@flickr.com (sweetsoursavory)` (2015); it never publishes a real address, and we
    /// do not keep a bare address as a display name either.
    static func authorName(from author: String) -> String? {
        let trimmed = author.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            return trimmed.isEmpty || trimmed.contains("@") ? nil : trimmed
        }
        var name = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            .trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name.isEmpty ? nil : name
    }

    /// Flickr's space-separated tag string; `""` is no tags.
    static func splitTags(_ tags: String?) -> [String] {
        (tags ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Trimmed text, or nil when nothing but whitespace is left.
    static func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// `tags` without duplicates or blanks, first occurrence wins.
    static func uniqueTags(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        return tags.compactMap(nonBlank).filter { seen.insert($0).inserted }
    }
}
