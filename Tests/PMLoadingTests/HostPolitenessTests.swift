import Foundation
import Testing
@testable import PMLoading

/// The pure rules behind `--per-host`, `--rate` and host pauses: what a host is, the token
/// bucket, and the bookkeeping of requests in flight and `Retry-After` pauses.
@Suite struct HostPolitenessTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func anOriginIsSchemeHostAndPortWithDefaultsWrittenOut() {
        #expect(Origin.of("https://Example.ORG/a/b.jpg?x=1") == "https://example.org:443")
        #expect(Origin.of("HTTP://example.org:80/x") == "http://example.org:80")
        #expect(Origin.of("http://example.org") == "http://example.org:80")
        #expect(Origin.of("http://user:pw@example.org:8080#frag") == "http://example.org:8080")
        #expect(Origin.of("http://[::1]:9000/p") == "http://[::1]:9000")
        #expect(Origin.of("https://[2001:DB8::1]/p") == "https://[2001:db8::1]:443")
        #expect(Origin.of("http://127.0.0.1:5000/a") != Origin.of("http://127.0.0.1:5001/a"))
        #expect(Origin.of("http://h/a") != Origin.of("https://h/a"))
        #expect(Origin.of("not a url") == "not a url")
        #expect(Origin.of("http://host:81?q=a://b") == "http://host:81")
        #expect(Origin.of("http://café.example/é") == "http://café.example:80")
        #expect(Origin.of("https://") == "https://:443")
    }

    @Test func aBucketLetsItsBurstGoAtOnceThenKeepsToTheRate() {
        var bucket = TokenBucket(rate: 2, now: 0)
        for _ in 0..<2 {
            #expect(bucket.wait(at: 0) == 0)
            bucket.take(at: 0)
        }
        #expect(bucket.wait(at: 0) == 0.5)
        #expect(bucket.wait(at: 0.25) == 0.25)
        #expect(bucket.wait(at: 0.5) == 0)
        bucket.take(at: 0.5)
        #expect(bucket.wait(at: 0.5) == 0.5)
        // Idle time refills it only up to the burst.
        #expect(bucket.wait(at: 100) == 0)
        bucket.take(at: 100)
        bucket.take(at: 100)
        #expect(bucket.wait(at: 100) == 0.5)
    }

    @Test func aFractionalRateHasABurstOfOne() {
        var bucket = TokenBucket(rate: 0.5, now: 10)
        #expect(bucket.capacity == 1)
        #expect(bucket.wait(at: 10) == 0)
        bucket.take(at: 10)
        #expect(bucket.wait(at: 10) == 2)
        #expect(bucket.wait(at: 11.5) == 0.5)
        #expect(bucket.wait(at: 12) == 0)
    }

    @Test func aHostTakesPerHostRequestsAndOthersAreNotCounted() {
        var traffic = HostTraffic(limits: HostLimits(perHost: 2))
        let a = "http://a:80", b = "http://b:80"
        traffic.start(a, at: 0)
        #expect(traffic.admission(a, at: 0) == .go)
        traffic.start(a, at: 0)
        #expect(traffic.admission(a, at: 0) == .full)
        #expect(traffic.admission(b, at: 0) == .go)
        traffic.finish(a, status: 200, retryAfter: nil, at: 1, date: date)
        #expect(traffic.admission(a, at: 1) == .go)
    }

    @Test func aRateMakesTheNextRequestWait() {
        var traffic = HostTraffic(limits: HostLimits(perHost: 6, rate: 0.5))
        let a = "http://a:80"
        traffic.start(a, at: 0)
        traffic.finish(a, status: 200, retryAfter: nil, at: 0.1, date: date)
        #expect(traffic.admission(a, at: 0.1) == .wait(until: 2))
        #expect(traffic.admission(a, at: 2) == .go)
        #expect(traffic.admission("http://b:80", at: 0.1) == .go)
    }

    @Test(arguments: [429, 503])
    func retryAfterOnTooManyRequestsOrUnavailablePausesTheHost(status: Int) {
        var traffic = HostTraffic(limits: HostLimits(perHost: 6))
        let a = "http://a:80"
        traffic.start(a, at: 10)
        #expect(traffic.finish(a, status: status, retryAfter: "2", at: 10.5, date: date) == nil)
        #expect(traffic.admission(a, at: 10.5) == .wait(until: 12.5))
        #expect(traffic.admission(a, at: 12.5) == .go)
        #expect(traffic.admission("http://b:80", at: 10.5) == .go)
    }

    @Test func anHTTPDatePausesUntilThatTime() {
        var traffic = HostTraffic(limits: HostLimits())
        let a = "http://a:80"
        traffic.start(a, at: 0)
        traffic.finish(a, status: 503, retryAfter: "Tue, 14 Nov 2023 22:13:25 GMT", at: 0, date: date)  // date + 5 s
        #expect(traffic.admission(a, at: 1) == .wait(until: 5))
    }

    @Test func overlappingPausesKeepTheLaterEnd() {
        var traffic = HostTraffic(limits: HostLimits())
        let a = "http://a:80"
        traffic.start(a, at: 0)
        traffic.start(a, at: 0)
        traffic.finish(a, status: 429, retryAfter: "5", at: 1, date: date)
        traffic.finish(a, status: 429, retryAfter: "1", at: 2, date: date)
        #expect(traffic.admission(a, at: 3) == .wait(until: 6))
    }

    @Test func otherAnswersAndMissingOrBadHeadersPauseNothing() {
        var traffic = HostTraffic(limits: HostLimits())
        let a = "http://a:80"
        for (status, header) in [(429, nil), (503, "soon"), (500, "5"), (301, "5"), (200, "5")] as [(Int, String?)] {
            traffic.start(a, at: 0)
            traffic.finish(a, status: status, retryAfter: header, at: 0, date: date)
            #expect(traffic.admission(a, at: 0) == .go, "\(status) \(header ?? "-")")
        }
        traffic.start(a, at: 0)
        traffic.finish(a, status: nil, retryAfter: nil, at: 0, date: date)
        #expect(traffic.admission(a, at: 0) == .go)
    }

    @Test func aPauseLongerThanTheLimitRefusesTheHostNamingItAndTheDelay() throws {
        var traffic = HostTraffic(limits: HostLimits(maxPause: 30))
        let a = "https://a.example:443"
        traffic.start(a, at: 0)
        let answer = traffic.finish(a, status: 429, retryAfter: "3600", at: 0, date: date)
        let error = try #require(answer)
        #expect(error == .hostPaused(origin: a, seconds: 3600, limit: 30))
        #expect(error.description.contains(a) && error.description.contains("3600 s") && error.description.contains("30 s"))
        #expect(traffic.admission(a, at: 5000) == .refused(retryAfter: 3600))
        #expect(traffic.refusal(a) == error)
        #expect(traffic.admission("https://b.example:443", at: 0) == .go)
        #expect(RetryPolicy().delay(after: 1, outcome: .failure(error), jitter: 0, now: date) == nil)
    }

    @Test func aPauseOfExactlyTheLimitIsWaitedOut() {
        var traffic = HostTraffic(limits: HostLimits(maxPause: 30))
        let a = "http://a:80"
        traffic.start(a, at: 0)
        #expect(traffic.finish(a, status: 503, retryAfter: "30", at: 0, date: date) == nil)
        #expect(traffic.admission(a, at: 0) == .wait(until: 30))
    }
}
