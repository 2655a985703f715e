import Foundation
import PMCache

/// What a sync learns about when each feed may be polled again: the larger of what its server
/// said (Cache-Control, Expires, Retry-After) and the document's `<ttl>` (remembered across
/// 304s, which do not repeat it), from the time of the fetch; and which feeds answered 410 Gone.
struct FeedPolls {
    let stored: [String: FeedPoll]
    private var byURL: [String: FeedPoll] = [:]
    var recorded: [FeedPoll] { Array(byURL.values) }
    var now = Date().timeIntervalSince1970

    init(stored: [String: FeedPoll]) {
        self.stored = stored
    }

    /// `timeToLive`: the document's `<ttl>`, once read (a 304 keeps the one stored); `pollHint`:
    /// what the answer's headers asked for (`FetchedFeed.pollHint`).
    mutating func fetched(_ url: String, notModified: Bool, pollHint: Double?, timeToLive: Double?) {
        let ttl = notModified ? stored[url]?.timeToLive : timeToLive
        let wait = [pollHint, ttl].compactMap { $0 }.max()
        byURL[url] = FeedPoll(url: url, timeToLive: ttl, pollAfter: wait.map { now + $0 })
    }

    mutating func failed(_ url: String, _ error: FeedFetchError) {
        byURL[url] = FeedPoll(url: url, timeToLive: stored[url]?.timeToLive, pollAfter: error.pollHint.map { now + $0 },
                              goneAt: error.gone ? now : nil)
    }

    func annotate(_ report: FeedReport) -> FeedReport {
        guard let poll = byURL[report.url] else { return report }
        var report = report
        report.gone = poll.goneAt != nil
        report.pollAfter = poll.pollAfter
        return report
    }
}
