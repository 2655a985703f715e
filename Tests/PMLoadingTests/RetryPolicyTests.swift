import Foundation
import Testing
@testable import PMLoading

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(attempts: 3, baseDelay: 0.5, maxDelay: 8, maxRetryAfter: 30)
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A fetch that succeeds, or fails for good, makes no random draw (a syscall each).
    @Test func drawsTheJitterOnlyForARetry() {
        var draws = 0
        func draw() -> Double {
            draws += 1
            return 0.5
        }
        _ = policy.delay(after: 1, outcome: .response(status: 200, retryAfter: nil), jitter: draw(), now: now)
        _ = policy.delay(after: 1, outcome: .response(status: 404, retryAfter: nil), jitter: draw(), now: now)
        _ = policy.delay(after: 3, outcome: .response(status: 503, retryAfter: nil), jitter: draw(), now: now)
        #expect(draws == 0)
        #expect(policy.delay(after: 1, outcome: .response(status: 503, retryAfter: nil), jitter: draw(), now: now) == 0.375)
        #expect(draws == 1)
    }

    @Test(arguments: [500, 502, 503, 504, 408, 429])
    func retriesServerTroubleAndRateLimits(status: Int) {
        #expect(policy.delay(after: 1, outcome: .response(status: status, retryAfter: nil), jitter: 0, now: now) == 0.25)
    }

    @Test(arguments: [200, 304, 400, 401, 403, 404, 410, 451])
    func neverRetriesOtherAnswers(status: Int) {
        #expect(policy.delay(after: 1, outcome: .response(status: status, retryAfter: nil), jitter: 0.5, now: now) == nil)
    }

    @Test func retriesConnectionFailuresAndTimeouts() {
        #expect(policy.delay(after: 1, outcome: .failure(.transport(code: 7, message: "refused")), jitter: 1, now: now) == 0.5)
        #expect(policy.delay(after: 2, outcome: .failure(.timedOut(seconds: 1)), jitter: 1, now: now) == 1.0)
    }

    @Test(arguments: [HTTPError.tooLarge(limit: 1), .unsupportedScheme("file"), .tooManyRedirects(5), .cancelled,
                      .refusedAddress(url: "http://127.0.0.1/a.jpg", address: "127.0.0.1", zone: .loopback, home: .public)])
    func neverRetriesRefusals(error: HTTPError) {
        #expect(policy.delay(after: 1, outcome: .failure(error), jitter: 0, now: now) == nil)
    }

    @Test func stopsAfterTheLastAttempt() {
        #expect(policy.delay(after: 3, outcome: .response(status: 503, retryAfter: nil), jitter: 0, now: now) == nil)
        #expect(RetryPolicy(attempts: 1).delay(after: 1, outcome: .response(status: 503, retryAfter: nil), jitter: 0, now: now) == nil)
    }

    @Test func backoffDoublesUpToTheCap() {
        let long = RetryPolicy(attempts: 10, baseDelay: 0.5, maxDelay: 8, maxRetryAfter: 30)
        let delays = (1...7).map { long.delay(after: $0, outcome: .response(status: 500, retryAfter: nil), jitter: 1, now: now) }
        #expect(delays == [0.5, 1, 2, 4, 8, 8, 8])
    }

    @Test func honoursRetryAfterSecondsUpToTheCap() {
        #expect(policy.delay(after: 1, outcome: .response(status: 429, retryAfter: "2"), jitter: 0, now: now) == 2)
        #expect(policy.delay(after: 1, outcome: .response(status: 503, retryAfter: "3600"), jitter: 0, now: now) == 30)
    }

    @Test func honoursRetryAfterDates() {
        let header = "Tue, 14 Nov 2023 22:13:25 GMT"  // now + 5 s
        #expect(policy.delay(after: 1, outcome: .response(status: 503, retryAfter: header), jitter: 0, now: now) == 5)
    }

    @Test func parsesTheThreeHTTPDateForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("yesterday") == nil)
        #expect(RetryPolicy.retryAfterSeconds("-5", now: now) == nil)
    }
}
