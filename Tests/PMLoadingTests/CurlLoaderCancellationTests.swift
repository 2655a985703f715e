import PMLoading
import Testing

/// Cancellation and shutdown end in-flight transfers promptly, each with `HTTPError.cancelled`.
///
/// The server holds each answer for two minutes, so a transfer that waited for it instead of
/// being cancelled would take that long: the bounds below only tell those apart, far from any
/// delay a loaded machine adds.
@Suite struct CurlLoaderCancellationTests {
    private static let longBeforeTheServerAnswers = Duration.seconds(60)

    @Test func cancellingATaskGroupEndsSlowRequestsPromptly() async throws {
        try await withFixture { server, loader in
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: (any Error)?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await loader.fetch(HTTPRequest(url: server.url("/sleep/120")))
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(200))
                group.cancelAll()
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ContinuousClock.now - started < Self.longBeforeTheServerAnswers)
            #expect(outcomes.count == 8)
            #expect(outcomes.allSatisfy { ($0 as? HTTPError) == .cancelled })
        }
    }

    @Test func alreadyCancelledTaskNeverStartsATransfer() async throws {
        try await withFixture { server, loader in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loader.fetch(HTTPRequest(url: server.url("/sleep/120")))
            }
            let started = ContinuousClock.now
            await #expect(throws: HTTPError.cancelled) { try await task.value }
            #expect(ContinuousClock.now - started < Self.longBeforeTheServerAnswers)
        }
    }

    @Test func shutdownFailsPendingAndLaterRequests() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let loader = CurlLoader()
        let pending = Task { try await loader.fetch(HTTPRequest(url: server.url("/sleep/120"))) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        loader.shutdown()
        await #expect(throws: HTTPError.cancelled) { try await pending.value }
        #expect(ContinuousClock.now - started < Self.longBeforeTheServerAnswers)
        await #expect(throws: HTTPError.cancelled) {
            try await loader.fetch(HTTPRequest(url: server.url("/bytes/10")))
        }
    }

    @Test func errorDescriptionsNameTheCause() {
        #expect(HTTPError.tooLarge(limit: 1000).description.contains("1000"))
        #expect(HTTPError.unsupportedScheme("file").description.contains("file"))
        #expect(HTTPError.tooManyRedirects(5).description.contains("5 redirects"))
        #expect(HTTPError.timedOut(seconds: 1.5).description.contains("1.5"))
    }
}
