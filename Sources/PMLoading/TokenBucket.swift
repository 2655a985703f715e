/// `--rate`: at most `rate` requests a second to one host on average. The bucket holds
/// `max(1, rate)` tokens and starts full, so a host is asked at once and then at the rate; the
/// burst stays about one second's worth. Pure: the caller gives the time (monotonic seconds).
struct TokenBucket: Sendable, Equatable {
    let rate: Double
    let capacity: Double
    private(set) var tokens: Double
    private(set) var updated: Double

    init(rate: Double, now: Double) {
        self.rate = rate
        capacity = max(1, rate)
        tokens = capacity
        updated = now
    }

    /// Seconds from `now` until a request may go; 0 when a token is there.
    func wait(at now: Double) -> Double {
        let available = level(at: now)
        // A waiter woken at the computed instant must find its token despite rounding.
        return available >= 1 - 1e-9 ? 0 : (1 - available) / rate
    }

    /// Spends a token; call only when `wait(at:)` is 0.
    mutating func take(at now: Double) {
        tokens = max(0, level(at: now) - 1)
        updated = now
    }

    private func level(at now: Double) -> Double {
        min(capacity, tokens + max(0, now - updated) * rate)
    }
}
