/// What one round of `watch` did, for its one line (or JSON line).
public struct WatchRound: Sendable, Encodable {
    public var number: Int
    /// Unix seconds.
    public var startedAt: Double
    public var seconds: Double
    /// Feeds read and published (changed or new).
    public var synced = 0
    /// Feeds that answered 304.
    public var unchanged = 0
    public var failed = 0
    /// Feeds that answered 410 Gone this round.
    public var gone = 0
    public var imagesNew = 0
    public var imagesFailed = 0
    /// The round could not run at all (the cache was locked for longer than --wait, the disk full…):
    /// its feeds are tried again next round.
    public var error: String?
    public var feedErrors: [String] = []
    /// When the next round starts (Unix seconds); nil when no feed is left to poll.
    public var nextAt: Double?

    enum CodingKeys: String, CodingKey {
        case number = "round", synced, unchanged, failed, gone, error, seconds
        case startedAt = "started_at", imagesNew = "images_new", imagesFailed = "images_failed"
        case feedErrors = "feed_errors", nextAt = "next_at"
    }

    init(number: Int, startedAt: Double) {
        self.number = number
        self.startedAt = startedAt
        self.seconds = 0
    }

    mutating func count(_ report: SyncReport) {
        for feed in report.feeds {
            if feed.gone { gone += 1 }
            if let error = feed.error {
                failed += 1
                feedErrors.append(error)
            } else if feed.unchanged {
                unchanged += 1
            } else {
                synced += 1
            }
            imagesNew += feed.downloaded
            imagesFailed += feed.failed + feed.moreImagesFailed
        }
    }
}
