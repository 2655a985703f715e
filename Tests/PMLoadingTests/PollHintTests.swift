import Foundation
import Testing
@testable import PMLoading

struct PollHintTests {
    let now = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func maxAgeMinusAgeIsTheHint() {
        #expect(PollHint.seconds(headers: ["cache-control": "public, max-age=600"], now: now) == 600)
        #expect(PollHint.seconds(headers: ["cache-control": "max-age=600", "age": "100"], now: now) == 500)
        #expect(PollHint.seconds(headers: ["cache-control": "max-age=\"90\""], now: now) == 90)
    }

    @Test func expiresCountsFromTheResponseDate() {
        let headers = ["date": "Sun, 06 Nov 1994 08:49:37 GMT", "expires": "Sun, 06 Nov 1994 09:49:37 GMT"]
        #expect(PollHint.seconds(headers: headers, now: now) == 3600)
        #expect(PollHint.seconds(headers: ["expires": "Sun, 06 Nov 1994 09:49:37 GMT"], now: now) == 0)
        // max-age wins over Expires (RFC 9111 §5.3).
        #expect(PollHint.seconds(headers: headers.merging(["cache-control": "max-age=60"]) { $1 }, now: now) == 60)
    }

    @Test func retryAfterAndTheLargestHintWin() {
        #expect(PollHint.seconds(headers: ["retry-after": "120"], now: now) == 120)
        #expect(PollHint.seconds(headers: ["retry-after": "120", "cache-control": "max-age=30"], now: now) == 120)
        #expect(PollHint.seconds(headers: ["retry-after": "10", "cache-control": "max-age=300"], now: now) == 300)
    }

    @Test func noCacheOrNothingSaysNothing() {
        #expect(PollHint.seconds(headers: [:], now: now) == nil)
        #expect(PollHint.seconds(headers: ["cache-control": "no-cache, max-age=600"], now: now) == nil)
        #expect(PollHint.seconds(headers: ["cache-control": "no-store"], now: now) == nil)
        #expect(PollHint.seconds(headers: ["cache-control": "max-age=soon"], now: now) == nil)
        #expect(PollHint.seconds(headers: ["expires": "0"], now: now) == nil)
    }
}
