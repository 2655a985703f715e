import Foundation

/// Wraps a loader with a `RetryPolicy`. Waits are `Task.sleep`, so cancellation (SIGINT)
/// ends them at once; the last response or error is what the caller sees. Over a
/// `PoliteLoader`, a `Retry-After` pause is waited out there, for the whole host; a retry that
/// host refuses (it asked, maybe in another request's answer, for too long a pause) ends in
/// `RetryStopped`, which keeps what this request got.
public struct RetryingLoader: HTTPLoading {
    public let base: any HTTPLoading
    public let policy: RetryPolicy

    public init(base: any HTTPLoading, policy: RetryPolicy) {
        self.base = base
        self.policy = policy
    }

    public func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        var attempt = 1
        var previous: (response: HTTPResponse?, error: HTTPError?)?
        while true {
            let outcome: RetryPolicy.Outcome
            let response: HTTPResponse?
            do {
                let received = try await base.fetch(request)
                response = received
                outcome = .response(status: received.status, retryAfter: received.headers["retry-after"])
            } catch let error as HTTPError {
                if case .hostPaused = error, let previous {
                    throw RetryStopped(response: previous.response, error: previous.error, stop: error)
                }
                response = nil
                outcome = .failure(error)
            }
            let now = Date()
            guard var wait = policy.delay(after: attempt, outcome: outcome, jitter: Double.random(in: 0..<1), now: now)
            else {
                if let response { return response }
                if case .failure(let error) = outcome { throw error }
                preconditionFailure("an outcome is a response or a failure")
            }
            // The host's pause is waited out in the base loader, holding nothing; only a longer
            // backoff is slept here.
            if base.waitsOutRetryAfter, let response,
               let pause = HostTraffic.requestedPause(status: response.status, retryAfter: response.headers["retry-after"], now: now) {
                wait = max(0, wait - pause)
            }
            do {
                try await Task.sleep(for: .seconds(wait))
            } catch {
                throw HTTPError.cancelled
            }
            if case .failure(let error) = outcome {
                if error.spoilsConnection { request.freshConnection = true }
                previous = (nil, error)
            } else {
                previous = (response, nil)
            }
            attempt += 1
        }
    }
}
