import PMLoading
import Testing

/// Successful transfers: bodies, statuses, redirects and the headers the cache layer relies on.
@Suite struct CurlLoaderResponseTests {
    @Test func bodyAndStreamedHashMatchTheServer() async throws {
        try await withFixture { server, loader in
            let response = try await loader.fetch(HTTPRequest(url: server.url("/bytes/300000")))
            #expect(response.status == 200)
            #expect(response.body.count == 300_000)
            #expect(response.body.prefix(3) == [0, 1, 2])
            #expect(response.sha256 == response.headers["x-sha256"])
            #expect(response.contentType == "application/octet-stream")
        }
    }

    @Test func errorStatusIsReturnedNotThrown() async throws {
        try await withFixture { server, loader in
            let response = try await loader.fetch(HTTPRequest(url: server.url("/status/404")))
            #expect(response.status == 404)
            #expect(response.body == Array("status body".utf8))
        }
    }

    @Test func fiftyConcurrentRequestsAllComplete() async throws {
        try await withFixture { server, loader in
            let responses = try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
                for index in 0..<50 {
                    group.addTask { (index, try await loader.fetch(HTTPRequest(url: server.url("/bytes/\(1000 + index * 37)")))) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(responses.count == 50)
            for (index, response) in responses {
                #expect(response.body.count == 1000 + index * 37)
                #expect(response.sha256 == response.headers["x-sha256"])
            }
        }
    }

    @Test func redirectsAreFollowedAndOnlyFinalHeadersKept() async throws {
        try await withFixture { server, loader in
            let response = try await loader.fetch(HTTPRequest(url: server.url("/hop/2")))
            #expect(response.status == 200)
            #expect(response.url == server.url("/hop/2"))
            #expect(response.effectiveURL == server.url("/hop/0"))
            #expect(response.body == Array("landed".utf8))
            #expect(response.etag == "\"final\"")
            #expect(response.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(response.headers["x-hop"] == nil)
        }
    }

    @Test func conditionalRequestReturns304() async throws {
        try await withFixture { server, loader in
            let first = try await loader.fetch(HTTPRequest(url: server.url("/etag")))
            #expect(first.status == 200)
            let etag = try #require(first.etag)
            var revalidate = HTTPRequest(url: server.url("/etag"))
            revalidate.headers["If-None-Match"] = etag
            let second = try await loader.fetch(revalidate)
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.etag == "\"v1\"")
        }
    }

    @Test func gzipBodyIsDecoded() async throws {
        try await withFixture { server, loader in
            let response = try await loader.fetch(HTTPRequest(url: server.url("/gzip")))
            #expect(response.body == Array(String(repeating: "hello gzip ", count: 100).utf8))
        }
    }

    @Test func userAgentAndRequestHeadersAreSent() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let loader = CurlLoader(userAgent: "pm-test/1")
        defer { loader.shutdown() }
        let agent = try await loader.fetch(HTTPRequest(url: server.url("/echo-header/User-Agent")))
        #expect(agent.body == Array("pm-test/1".utf8))
        var custom = HTTPRequest(url: server.url("/echo-header/X-Test"))
        custom.headers["X-Test"] = "abc"
        let echoed = try await loader.fetch(custom)
        #expect(echoed.body == Array("abc".utf8))
    }

    @Test func sequentialRequestsReuseTheConnection() async throws {
        try await withFixture { server, loader in
            let first = try await loader.fetch(HTTPRequest(url: server.url("/peer")))
            let second = try await loader.fetch(HTTPRequest(url: server.url("/peer")))
            #expect(first.body == second.body, "client port changed: a new connection per request")
        }
    }
}
