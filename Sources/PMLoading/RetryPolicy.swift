import Foundation

/// When to try a request again, and after how long. Pure: the caller supplies the attempt
/// number, what happened, a jitter draw and the clock, so every decision is unit-testable.
///
/// Retried: connection failures, timeouts, 5xx, 408 and 429 — the failures that say "not now".
/// Never retried: other 4xx (the answer will not change), size or scheme refusals, redirect
/// loops, cancellation. Backoff is exponential with jitter (half to full of the step) so many
/// clients don't retry in lockstep; a server's Retry-After (seconds or HTTP date) is honoured
/// up to `maxRetryAfter`.
public struct RetryPolicy: Sendable, Equatable {
    /// Total tries, the first included.
    public var attempts = 3
    public var baseDelay = 0.5
    public var maxDelay = 8.0
    public var maxRetryAfter = 30.0

    public init(attempts: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 8, maxRetryAfter: Double = 30) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public enum Outcome: Sendable {
        case response(status: Int, retryAfter: String?)
        case failure(HTTPError)
    }

    /// Seconds to wait before attempt `attempt + 1`, or nil to stop. `attempt` counts from 1;
    /// `jitter` is a draw from 0..<1, made only when a retry is due: a draw from the system's
    /// generator is a `getrandom` call, and nearly every fetch succeeds the first time.
    public func delay(after attempt: Int, outcome: Outcome, jitter: @autoclosure () -> Double, now: Date) -> Double? {
        guard attempt < attempts, isRetryable(outcome) else { return nil }
        let step = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        let backoff = step * (0.5 + 0.5 * jitter())
        if case .response(_, let header?) = outcome, let requested = Self.retryAfterSeconds(header, now: now) {
            return min(max(requested, backoff), maxRetryAfter)
        }
        return backoff
    }

    func isRetryable(_ outcome: Outcome) -> Bool {
        switch outcome {
        case .response(let status, _):
            return status >= 500 || status == 408 || status == 429
        case .failure(let error):
            switch error {
            case .timedOut, .transport: return true
            case .unsupportedScheme, .tooLarge, .tooManyRedirects, .cancelled, .hostPaused, .refusedAddress: return false
            }
        }
    }

    /// `Retry-After` as seconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func retryAfterSeconds(_ header: String, now: Date) -> Double? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? Double(seconds) : nil }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
