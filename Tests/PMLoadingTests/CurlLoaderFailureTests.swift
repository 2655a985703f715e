import PMLoading
import Testing

/// Transfers that must fail, each with the error that names its cause.
@Suite struct CurlLoaderFailureTests {
    @Test func redirectLoopIsCappedByMaxRedirects() async throws {
        try await withFixture { server, loader in
            var request = HTTPRequest(url: server.url("/loop"))
            request.maxRedirects = 3
            await #expect(throws: HTTPError.tooManyRedirects(3)) { try await loader.fetch(request) }
        }
    }

    @Test func redirectToFileSchemeIsRefused() async throws {
        try await withFixture { server, loader in
            await #expect(throws: HTTPError.unsupportedScheme("file")) {
                try await loader.fetch(HTTPRequest(url: server.url("/to-file")))
            }
        }
    }

    @Test func nonHTTPSchemeIsRefusedUpFront() async throws {
        let loader = CurlLoader()
        defer { loader.shutdown() }
        await #expect(throws: HTTPError.unsupportedScheme("file")) {
            try await loader.fetch(HTTPRequest(url: "file:///etc/passwd"))
        }
    }

    @Test func declaredLengthOverLimitFailsBeforeTheBody() async throws {
        try await withFixture { server, loader in
            var request = HTTPRequest(url: server.url("/declared-huge"))
            request.maxBytes = 1000
            // The server never sends the declared body and then hangs up: a loader that waited for
            // the body would fail on the cut transfer, not on the limit.
            await #expect(throws: HTTPError.tooLarge(limit: 1000)) { try await loader.fetch(request) }
        }
    }

    @Test func streamedBodyOverLimitIsAborted() async throws {
        try await withFixture { server, loader in
            var request = HTTPRequest(url: server.url("/chunked/10"))
            request.maxBytes = 2500
            await #expect(throws: HTTPError.tooLarge(limit: 2500)) { try await loader.fetch(request) }
            request.url = server.url("/chunked/2")
            let underLimit = try await loader.fetch(request)
            #expect(underLimit.body.count == 2000)
        }
    }

    @Test func stalledServerTimesOutOnTheStallLimit() async throws {
        try await withFixture { server, loader in
            var request = HTTPRequest(url: server.url("/sleep/5"))
            request.stallTimeout = 1
            request.timeout = 10
            // The total timeout would report its own 10 s, and the server's late answer no error.
            await #expect(throws: HTTPError.timedOut(seconds: 1)) { try await loader.fetch(request) }
        }
    }

    @Test func slowButMovingTransferHitsTheTotalTimeout() async throws {
        try await withFixture { server, loader in
            var request = HTTPRequest(url: server.url("/trickle"))
            request.timeout = 0.8
            await #expect(throws: HTTPError.timedOut(seconds: 0.8)) { try await loader.fetch(request) }
        }
    }

    @Test func refusedConnectionNamesHostAndPort() async throws {
        let loader = CurlLoader()
        defer { loader.shutdown() }
        let error = await #expect(throws: HTTPError.self) {
            try await loader.fetch(HTTPRequest(url: "http://127.0.0.1:1/x"))
        }
        guard case .transport(let code, let message) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == 7)  // CURLE_COULDNT_CONNECT
        #expect(message.contains("127.0.0.1"))
        #expect(message.contains("port 1"))
        #expect(error?.description.contains("127.0.0.1") == true)
    }
}
