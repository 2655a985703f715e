import PMCache

/// When each watched feed is due: the larger of `every` after its last poll and what the feed
/// asked for (`pollAfter`), plus a little jitter so that many watchers started together drift
/// apart instead of polling in step. A gone feed (410) is never due. Pure: the clock and the
/// jitter draws are passed in.
public struct WatchSchedule: Sendable {
    public let every: Double
    /// Jitter adds up to this fraction of `every`, capped at `maxJitter` seconds.
    public static let jitterFraction = 0.05
    public static let maxJitter = 60.0

    struct Entry: Sendable {
        var due: Double
        var gone: Bool
    }

    /// In the order given, which is the order a round syncs them.
    private let feeds: [String]
    private var entries: [String: Entry] = [:]

    /// `lastPolls` are the index's `last_sync` times: a restarted watch does not poll at once what
    /// it polled a minute ago. A feed never synced is due now.
    public init(feeds: [String], every: Double, lastPolls: [String: Double], polls: [String: FeedPoll], now: Double,
                jitter: () -> Double) {
        self.feeds = feeds
        self.every = every
        for url in feeds {
            let poll = polls[url]
            let earliest = max(lastPolls[url].map { $0 + every } ?? now, poll?.pollAfter ?? now)
            entries[url] = Entry(due: earliest > now ? earliest + jitterSeconds(jitter()) : now, gone: poll?.goneAt != nil)
        }
    }

    public func due(at now: Double) -> [String] {
        feeds.filter { entries[$0].map { !$0.gone && $0.due <= now } ?? false }
    }

    /// The earliest due time of a live feed; nil when every feed is gone.
    public var nextDue: Double? {
        entries.values.filter { !$0.gone }.map(\.due).min()
    }

    public var gone: [String] { feeds.filter { entries[$0]?.gone == true } }

    /// After a round: each polled feed is due `every` from now, or later if it asked.
    public mutating func polled(_ url: String, at now: Double, pollAfter: Double?, gone: Bool, jitter: Double) {
        entries[url] = Entry(due: max(now + every, pollAfter ?? 0) + jitterSeconds(jitter), gone: gone)
    }

    private func jitterSeconds(_ draw: Double) -> Double {
        min(every * Self.jitterFraction, Self.maxJitter) * draw
    }
}
