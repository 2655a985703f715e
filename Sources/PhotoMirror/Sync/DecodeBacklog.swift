/// Holds new downloads back while `limit` downloaded images already wait for the codec pool.
///
/// On a fast network decoding is the bottleneck: without this every one of the `--jobs`
/// transfers would finish and park its body in the pool's queue, so memory held `--jobs`
/// bodies, and the larger the feed, the likelier a run of big ones (a sync's peak memory grew
/// with its length). With it a download starts only when fewer than `limit` bodies wait, so the
/// queue holds about `limit`. On a slow network bodies never pile up and nothing waits: all
/// `--jobs` transfers stay in flight.
actor DecodeBacklog {
    private let limit: Int
    private var pending = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Call before a download; returns when it may start.
    func admit() async {
        guard pending >= limit else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// The body of an admitted download has arrived and waits to be decoded.
    func arrived() {
        pending += 1
    }

    /// An admitted download is over: decoded, or failed before or after arriving. Each one
    /// ending lets one held-back download start, so admissions follow the decoding rate.
    func finished(arrived: Bool) {
        if arrived { pending -= 1 }
        if !waiters.isEmpty, pending < limit { waiters.removeFirst().resume() }
    }
}
