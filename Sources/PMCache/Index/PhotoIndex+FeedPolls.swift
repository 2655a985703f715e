/// When a feed may be polled again, and whether it is gone (`feed_polls`): what `watch` keeps
/// between rounds and across restarts. Keyed by feed key, with the URL, so a feed that never
/// synced (its first answer a 410) is remembered too.
public struct FeedPoll: Sendable, Equatable {
    public var url: String
    /// The document's own `<ttl>`, in seconds, as last read: a 304 does not repeat it.
    public var timeToLive: Double?
    /// Not polled before this time (Unix seconds): what the feed asked for at its last fetch.
    public var pollAfter: Double?
    /// When the feed answered 410 Gone; nil while it lives.
    public var goneAt: Double?

    public init(url: String, timeToLive: Double? = nil, pollAfter: Double? = nil, goneAt: Double? = nil) {
        self.url = url
        self.timeToLive = timeToLive
        self.pollAfter = pollAfter
        self.goneAt = goneAt
    }
}

extension PhotoIndex {
    /// Every recorded poll, by feed URL.
    public func feedPolls() throws(IndexError) -> [String: FeedPoll] {
        let query = try connection.statement("SELECT url, ttl, poll_after, gone_at FROM feed_polls")
        var polls: [String: FeedPoll] = [:]
        while try query.step() {
            let url = query.text(0) ?? ""
            polls[url] = FeedPoll(url: url, timeToLive: query.optionalDouble(1), pollAfter: query.optionalDouble(2),
                                  goneAt: query.optionalDouble(3))
        }
        return polls
    }

    /// Replaces the polls of these feeds, in one transaction.
    public func recordPolls(_ polls: [FeedPoll]) throws(IndexError) {
        guard !polls.isEmpty else { return }
        try connection.transaction { () throws(IndexError) in
            for poll in polls {
                try connection.statement("""
                    INSERT INTO feed_polls(feed_key, url, ttl, poll_after, gone_at) VALUES(?,?,?,?,?)
                    ON CONFLICT(feed_key) DO UPDATE SET url = excluded.url, ttl = excluded.ttl,
                        poll_after = excluded.poll_after, gone_at = excluded.gone_at
                    """).bind(.text(CacheLayout.feedKey(url: poll.url)), .text(poll.url), .optional(poll.timeToLive),
                              .optional(poll.pollAfter), .optional(poll.goneAt)).run()
            }
        }
    }
}
