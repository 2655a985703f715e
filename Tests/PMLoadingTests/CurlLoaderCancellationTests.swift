import PMLoading
import Testing

/// Cancellation and shutdown end in-flight transfers promptly, each with `HTTPError.cancelled`.
@Suite struct CurlLoaderCancellationTests {
    @Test func cancellingATaskGroupEndsSlowRequestsPromptly() async throws {
        try await withFixture { server, loader in
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: (any Error)?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await loader.fetch(HTTPRequest(url: server.url("/sleep/10")))
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
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(outcomes.count == 8)
            #expect(outcomes.allSatisfy { ($0 as? HTTPError) == .cancelled })
        }
    }

    @Test func alreadyCancelledTaskNeverStartsATransfer() async throws {
        try await withFixture { server, loader in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loader.fetch(HTTPRequest(url: server.url("/sleep/10")))
            }
            let started = ContinuousClock.now
            await #expect(throws: HTTPError.cancelled) { try await task.value }
            #expect(ContinuousClock.now - started < .seconds(1))
        }
    }

    @Test func shutdownFailsPendingAndLaterRequests() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let loader = CurlLoader()
        let pending = Task { try await loader.fetch(HTTPRequest(url: server.url("/sleep/10"))) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        loader.shutdown()
        await #expect(throws: HTTPError.cancelled) { try await pending.value }
        #expect(ContinuousClock.now - started < .seconds(1))
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
