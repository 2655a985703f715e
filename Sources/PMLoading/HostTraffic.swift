import Foundation

/// What `HostGate` knows of each host: requests in flight, its rate bucket, and the pause a
/// `429 Too Many Requests` or `503 Service Unavailable` with `Retry-After` asked for. Pure: the
/// caller gives the time (monotonic seconds), so every rule is unit-testable.
struct HostTraffic {
    enum Admission: Equatable {
        /// A request may start now (`start` it).
        case go
        /// `perHost` requests are in flight: the next waits for one to finish.
        case full
        /// Paused or out of tokens until then.
        case wait(until: Double)
        /// The host asked for a longer pause than `maxPause`: no request to it in this run.
        case refused(retryAfter: Double)
    }

    let limits: HostLimits
    private var hosts: [String: Host] = [:]

    private struct Host {
        var inFlight = 0
        var bucket: TokenBucket?
        var pausedUntil = -Double.infinity
        var refusedFor: Double?
    }

    init(limits: HostLimits) {
        self.limits = limits
    }

    func admission(_ origin: String, at now: Double) -> Admission {
        guard let host = hosts[origin] else { return .go }
        if let asked = host.refusedFor { return .refused(retryAfter: asked) }
        if host.inFlight >= limits.perHost { return .full }
        let ready = max(host.pausedUntil, now + (host.bucket?.wait(at: now) ?? 0))
        return ready > now ? .wait(until: ready) : .go
    }

    /// For a request `admission` let go that has waited elsewhere since (for a download place):
    /// whether its host refused or paused meanwhile, in an answer to another request.
    func recheck(_ origin: String, at now: Double) -> Admission {
        guard let host = hosts[origin] else { return .go }
        if let asked = host.refusedFor { return .refused(retryAfter: asked) }
        return host.pausedUntil > now ? .wait(until: host.pausedUntil) : .go
    }

    /// Counts a request that `admission` let go.
    mutating func start(_ origin: String, at now: Double) {
        var host = hosts[origin] ?? Host()
        host.inFlight += 1
        if let rate = limits.rate {
            var bucket = host.bucket ?? TokenBucket(rate: rate, now: now)
            bucket.take(at: now)
            host.bucket = bucket
        }
        hosts[origin] = host
    }

    /// Counts a request as done. A 429 or 503 with `Retry-After` pauses the host from `now`
    /// (`date` is the same instant on the wall clock, for an HTTP-date header); a longer pause
    /// than `maxPause` refuses the host, and that is returned as the error its requests get.
    @discardableResult
    mutating func finish(_ origin: String, status: Int?, retryAfter: String?, at now: Double, date: Date) -> HTTPError? {
        guard var host = hosts[origin] else { return nil }
        host.inFlight = max(0, host.inFlight - 1)
        hosts[origin] = host
        return observe(origin, status: status, retryAfter: retryAfter, at: now, date: date)
    }

    /// What `finish` records of an answer, without counting its request as done: for the moment
    /// the answer arrives, before whatever waited for its transfer's place starts. Seeing the
    /// same answer again (in `finish`) changes nothing but a pause's start, by that instant.
    @discardableResult
    mutating func observe(_ origin: String, status: Int?, retryAfter: String?, at now: Double, date: Date) -> HTTPError? {
        guard var host = hosts[origin] else { return nil }
        defer { hosts[origin] = host }
        guard let status, let seconds = Self.requestedPause(status: status, retryAfter: retryAfter, now: date) else {
            return nil
        }
        if seconds > limits.maxPause {
            host.refusedFor = max(host.refusedFor ?? 0, seconds)
            return .hostPaused(origin: origin, seconds: seconds, limit: limits.maxPause)
        }
        host.pausedUntil = max(host.pausedUntil, now + seconds)
        return nil
    }

    /// The error every request to a refused host gets.
    func refusal(_ origin: String) -> HTTPError? {
        hosts[origin]?.refusedFor.map { .hostPaused(origin: origin, seconds: $0, limit: limits.maxPause) }
    }

    /// The pause a response asks of its host: only "too many requests" and "unavailable" speak
    /// for the whole host; a `Retry-After` on anything else (a redirect, say) is about that URL.
    static func requestedPause(status: Int, retryAfter: String?, now: Date) -> Double? {
        guard status == 429 || status == 503, let retryAfter else { return nil }
        return RetryPolicy.retryAfterSeconds(retryAfter, now: now)
    }
}
