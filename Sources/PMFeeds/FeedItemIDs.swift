import PMSupport

/// Item ids: natural where the feed has one, else a digest of the item's URLs, so the same
/// photo gets the same id on every sync.
enum FeedItemIDs {
    /// Hex digest of the first non-empty candidate (link, then media URL), 24 digits: short
    /// enough to read in logs, long enough that collisions within a feed are not a concern.
    static func hashed(_ candidates: String?...) -> String? {
        guard let source = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        return "sha256-" + Digest.sha256Hex(Array(source.utf8)).prefix(24)
    }

    /// The id of an item that names neither itself, a link nor an image: a digest of what it
    /// says, so an unchanged item keeps its id across syncs (an edited one becomes a new item).
    /// Fields are joined with U+001F, which no feed text carries, so `("ab", "c")` and `("a", "bc")` differ.
    static func contentHashed(title: String?, date: String?, description: String?) -> String {
        let joined = [title, date, description].map { $0.map(FeedText.trimmingWhitespacesAndNewlines) ?? "" }
            .joined(separator: "\u{1F}")
        return "sha256-" + Digest.sha256Hex(Array(joined.utf8)).prefix(24)
    }

    /// Makes ids unique within a feed: a repeated id gets `-2`, `-3`, … in feed order, skipping
    /// suffixes another item already uses. Order is the feed's, so the result is stable across syncs
    /// as long as the feed lists the duplicates in the same order.
    static func uniqued(_ items: [FeedItem]) -> [FeedItem] {
        var taken = Set(items.map(\.id))
        guard taken.count < items.count else { return items }
        var seen: Set<String> = []
        return items.map { item in
            guard !seen.insert(item.id).inserted else { return item }
            var copy = item
            var suffix = 2
            while taken.contains("\(item.id)-\(suffix)") { suffix += 1 }
            copy.id = "\(item.id)-\(suffix)"
            taken.insert(copy.id)
            seen.insert(copy.id)
            return copy
        }
    }
}
