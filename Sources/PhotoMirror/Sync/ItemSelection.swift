import Foundation
import PMFeeds
import PMCache

/// Which of a feed's items a sync takes (`--max-items`, `--since`), the same for every feed kind.
/// Pure. An item's date is when it was published, else when its photo was taken.
public struct ItemSelection: Sendable, Equatable {
    /// The newest this many (`--max-items`). Dated items rank by date, newest first; items without
    /// a date rank after every dated one, in the feed's order (feeds list their newest first), so a
    /// feed without dates gives its first N.
    public var newest: Int?
    /// Only items dated at or after this time, Unix seconds (`--since`). An item without a date is
    /// taken: nothing says it is older.
    public var since: Double?

    public init(newest: Int? = nil, since: Double? = nil) {
        self.newest = newest
        self.since = since
    }

    public var takesAll: Bool { newest == nil && since == nil }

    static func date(of item: FeedItem) -> Date? { item.published ?? item.dateTaken }

    func admits(_ item: FeedItem) -> Bool {
        guard let since, let date = Self.date(of: item) else { return true }
        return date.timeIntervalSince1970 >= since
    }

    /// The chosen items of a whole list, in the feed's order.
    func choose(_ items: [FeedItem]) -> [FeedItem] {
        guard !takesAll else { return items }
        var picker = Picker(self)
        for item in items { picker.offer(item) }
        return picker.chosen
    }

    /// Chooses while a feed streams past, holding no more than `newest` items.
    struct Picker {
        let selection: ItemSelection
        private var kept: [(order: Int, item: FeedItem)] = []
        private var offered = 0

        init(_ selection: ItemSelection) { self.selection = selection }

        mutating func offer(_ item: FeedItem) {
            defer { offered += 1 }
            guard selection.admits(item) else { return }
            kept.append((offered, item))
            guard let newest = selection.newest, kept.count > max(newest, 0) else { return }
            // Drop the least recent: the oldest dated one, else the last undated one.
            var weakest = 0
            for index in kept.indices.dropFirst() where Self.ranksBelow(kept[index], kept[weakest]) { weakest = index }
            kept.remove(at: weakest)
        }

        /// The items kept, in the feed's order.
        var chosen: [FeedItem] { kept.sorted { $0.order < $1.order }.map(\.item) }

        static func ranksBelow(_ a: (order: Int, item: FeedItem), _ b: (order: Int, item: FeedItem)) -> Bool {
            switch (ItemSelection.date(of: a.item), ItemSelection.date(of: b.item)) {
            case let (dateA?, dateB?): dateA != dateB ? dateA < dateB : a.order > b.order
            case (nil, _?): true
            case (_?, nil): false
            case (nil, nil): a.order > b.order
            }
        }
    }
}

extension ItemSelection {
    public struct SinceError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `--since`: a duration back from `now` (`7d`, `12h`, as `AgeLimit` reads them), a date
    /// (`2026-11-01`, midnight UTC) or an ISO 8601 time (`2026-11-01T12:00:00Z`, `…+01:00`).
    public static func since(_ text: String, now: Date) throws(SinceError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = try? AgeLimit.parse(trimmed) { return now.timeIntervalSince1970 - seconds }
        let isDay = trimmed.count == 10 && trimmed.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
        }
        if let date = try? Date(isDay ? trimmed + "T00:00:00Z" : trimmed, strategy: .iso8601) {
            return date.timeIntervalSince1970
        }
        throw SinceError(description: "\"\(text)\" is neither a duration (7d, 12h, 30m) nor a date (2026-11-01 or "
            + "2026-11-01T12:00:00Z)")
    }
}
