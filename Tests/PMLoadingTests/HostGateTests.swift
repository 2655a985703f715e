import Foundation
import Synchronization
import Testing
@testable import PMLoading

/// `HostGate` and `PoliteLoader` over an in-memory loader: per-host admission, other hosts never
/// held up, pauses waited out by the retry too, cancellation and refusal of waiting requests.
@Suite struct HostGateTests {
    /// Answers from a script per URL path and records when each request reached it.
    final class ScriptedLoader: HTTPLoading {
        private let state = Mutex<(answers: [String: [HTTPResponse]], log: [(url: String, at: ContinuousClock.Instant)])>(([:], []))

        init(_ answers: [String: [HTTPResponse]]) {
            state.withLock { $0.answers = answers }
        }

        func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
            state.withLock { state in
                state.log.append((request.url, .now))
                if var queue = state.answers[request.url], queue.count > 1 {
                    let first = queue.removeFirst()
                    state.answers[request.url] = queue
                    return first
                }
                return state.answers[request.url]?.first ?? HTTPResponse(url: request.url, status: 200, body: [1])
            }
        }

        var log: [(url: String, at: ContinuousClock.Instant)] { state.withLock { $0.log } }
    }

    actor Order {
        var numbers: [Int] = []
        func append(_ number: Int) { numbers.append(number) }
    }

    @Test func aHostGetsPerHostAdmissionsAndAnotherHostIsNotHeldUp() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 2))
        try await gate.admit("http://a:80")
        try await gate.admit("http://a:80")
        let third = Task { try await gate.admit("http://a:80") }
        while await gate.parking().parked == 0 { await Task.yield() }
        try await gate.admit("http://b:80")  // returns although a is full
        #expect(await gate.parking().parked == 1)
        await gate.finish("http://a:80", response: nil)
        try await third.value
        #expect(await gate.parking().parked == 0)
    }

    @Test func waitersOfOneHostGoInTheOrderTheyCame() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 1))
        try await gate.admit("http://a:80")
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for number in 0..<4 {
            tasks.append(Task {
                try await gate.admit("http://a:80")
                await order.append(number)
                await gate.finish("http://a:80", response: nil)
            })
            while await gate.parking().parked <= number { await Task.yield() }
        }
        await gate.finish("http://a:80", response: nil)
        for task in tasks { try await task.value }
        #expect(await order.numbers == [0, 1, 2, 3])
    }

    @Test func parkingIsAnnouncedToAWatcher() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 1))
        try await gate.admit("http://a:80")
        let generation = await gate.parking().generation
        let watcher = Task { await gate.waitForParking(after: generation) }
        let waiter = Task { try await gate.admit("http://a:80") }
        await watcher.value
        #expect(await gate.parking().parked == 1)
        await gate.finish("http://a:80", response: nil)
        try await waiter.value
    }

    @Test func cancellingAParkedRequestEndsItAtOnce() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 1))
        try await gate.admit("http://a:80")
        let waiter = Task { try await gate.admit("http://a:80") }
        while await gate.parking().parked == 0 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: HTTPError.cancelled) { try await waiter.value }
        #expect(await gate.parking().parked == 0)
    }

    @Test func aRefusedHostFailsItsWaitingAndLaterRequests() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 1, maxPause: 30))
        let a = "http://a:80"
        try await gate.admit(a)
        let waiter = Task { try await gate.admit(a) }
        while await gate.parking().parked == 0 { await Task.yield() }
        let refusal = await gate.finish(a, response: HTTPResponse(url: "http://a/x", status: 429, headers: ["retry-after": "600"], body: []))
        let expected = HTTPError.hostPaused(origin: a, seconds: 600, limit: 30)
        #expect(refusal == expected)
        await #expect(throws: expected) { try await waiter.value }
        await #expect(throws: expected) { try await gate.admit(a) }
        try await gate.admit("http://b:80")
    }

    @Test func aPausedHostsRetryAndItsOtherRequestsWaitWhileOtherHostsGoOn() async throws {
        let busy = HTTPResponse(url: "http://a/1", status: 429, headers: ["retry-after": "1"], body: [])
        let base = ScriptedLoader(["http://a/1": [busy, HTTPResponse(url: "http://a/1", status: 200, body: [1])]])
        let gate = HostGate(limits: HostLimits(perHost: 6))
        let loader = RetryingLoader(base: PoliteLoader(base: base, gate: gate), policy: RetryPolicy(attempts: 2))
        #expect(loader.base.waitsOutRetryAfter)
        let first = Task { try await loader.fetch(HTTPRequest(url: "http://a/1")) }
        while base.log.isEmpty { await Task.yield() }
        // Let the 429 be seen before the others ask.
        while await gate.parking().parked == 0 { await Task.yield() }
        let other = try await loader.fetch(HTTPRequest(url: "http://b/1"))
        let sameHost = Task { try await loader.fetch(HTTPRequest(url: "http://a/2")) }
        #expect(other.status == 200)
        #expect(try await first.value.status == 200)
        #expect(try await sameHost.value.status == 200)
        let log = base.log
        #expect(log.map(\.url) == ["http://a/1", "http://b/1", "http://a/1", "http://a/2"] || log.map(\.url) == [
            "http://a/1", "http://b/1", "http://a/2", "http://a/1"], "b goes while a is paused: \(log.map(\.url))")
        let paused = log[0].at
        #expect(log.dropFirst(2).allSatisfy { $0.at - paused >= .seconds(1) }, "a was asked again before its Retry-After")
    }

    /// A request let go before another request's answer paused or refused its host, and not
    /// yet sent, learns of it from `pauseLeft`.
    @Test func aRequestLetGoLearnsOfAPauseThatCameSince() async throws {
        let gate = HostGate(limits: HostLimits(perHost: 6))
        let a = "http://a:80"
        try await gate.admit(a)
        try await gate.admit(a)
        #expect(try await gate.pauseLeft(a) == nil)
        await gate.finish(a, response: HTTPResponse(url: "http://a/1", status: 503, headers: ["retry-after": "20"], body: []))
        let left = try #require(try await gate.pauseLeft(a))
        #expect(left > 10 && left <= 20)
        try await gate.admit("http://b:80")
        #expect(try await gate.pauseLeft("http://b:80") == nil)
        await gate.finish(a, response: HTTPResponse(url: "http://a/2", status: 503, headers: ["retry-after": "1000"], body: []))
        await #expect(throws: HTTPError.hostPaused(origin: a, seconds: 1000, limit: 30)) { try await gate.pauseLeft(a) }
        // An answer observed as it arrives counts before its request is finished.
        let c = "http://c:80"
        try await gate.admit(c)
        try await gate.admit(c)
        await gate.observe(c, response: HTTPResponse(url: "http://c/1", status: 429, headers: ["retry-after": "1000"], body: []))
        await #expect(throws: HTTPError.hostPaused(origin: c, seconds: 1000, limit: 30)) { try await gate.pauseLeft(c) }
    }

    @Test func aRateSpacesOneHostsRequests() async throws {
        let base = ScriptedLoader([:])
        let gate = HostGate(limits: HostLimits(perHost: 6, rate: 4))
        let loader = PoliteLoader(base: base, gate: gate)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<6 {
                group.addTask { _ = try await loader.fetch(HTTPRequest(url: "http://a/\(number)")) }
            }
            try await group.waitForAll()
        }
        let times = base.log.map(\.at).sorted()
        // A burst of four, then one every quarter second.
        #expect(times[5] - times[0] >= .milliseconds(490))
    }
}
