import PMLoading
import PMSupport
import Testing

/// HEAD, PUT, POST and DELETE, request bodies across retries, and AWS SigV4 signing by libcurl.
@Suite struct CurlLoaderMethodTests {
    private func request(_ url: String, _ method: HTTPMethod, body: [UInt8]? = nil, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.method = method
        request.body = body
        request.headers = headers
        return request
    }

    @Test func headReadsHeadersOnly() async throws {
        try await withFixture { server, loader in
            // Bigger than maxBytes: a HEAD transfers no body, so its Content-Length must not fail it.
            var head = request(server.url("/bytes/5000000"), .head)
            head.maxBytes = 1000
            let response = try await loader.fetch(head)
            #expect(response.status == 200)
            #expect(response.headers["content-length"] == "5000000")
            #expect(response.body.isEmpty)
        }
    }

    @Test func putAndPostSendTheirBodyBytesExactly() async throws {
        try await withFixture { server, loader in
            let body = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }  // NUL bytes included
            for method in [HTTPMethod.put, .post] {
                let response = try await loader.fetch(request(server.url("/echo"), method, body: body,
                                                              headers: ["Content-Type": "image/jpeg"]))
                #expect(String(decoding: response.body, as: UTF8.self)
                    == "\(method.rawValue) 70000 \(Digest.sha256Hex(body)) image/jpeg")
            }
        }
    }

    @Test func aBodyWithoutContentTypeIsOctetStreamAndNoBodyIsEmpty() async throws {
        try await withFixture { server, loader in
            let typed = try await loader.fetch(request(server.url("/echo"), .put, body: [1, 2]))
            #expect(String(decoding: typed.body, as: UTF8.self).hasSuffix(" application/octet-stream"))
            let empty = try await loader.fetch(request(server.url("/echo"), .put))
            #expect(String(decoding: empty.body, as: UTF8.self) == "PUT 0 \(Digest.sha256Hex([UInt8]())) application/octet-stream")
            let delete = try await loader.fetch(request(server.url("/echo"), .delete))
            #expect(String(decoding: delete.body, as: UTF8.self).hasPrefix("DELETE 0 "))
        }
    }

    @Test func aRetriedPutSendsItsBodyAgain() async throws {
        try await withFixture { server, loader in
            let retrying = RetryingLoader(base: loader, policy: RetryPolicy(attempts: 3, baseDelay: 0.01))
            let body = Array("the original's bytes".utf8)
            let response = try await retrying.fetch(request(server.url("/flaky/put-1"), .put, body: body,
                                                            headers: ["Content-Type": "text/plain"]))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "PUT \(body.count) \(Digest.sha256Hex(body)) text/plain")
        }
    }

    @Test func aSignedRequestCarriesASigV4AuthorizationButNotTheSecret() async throws {
        try await withFixture { server, loader in
            var signed = HTTPRequest(url: server.url("/echo-header/Authorization"))
            signed.signing = AWSSigning(region: "eu-west-3", service: "s3", accessKeyID: "account:user",
                                        secretAccessKey: "SECRET-NOT-SENT")
            signed.headers["x-amz-content-sha256"] = Digest.sha256Hex([UInt8]())
            let authorization = String(decoding: try await loader.fetch(signed).body, as: UTF8.self)
            #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=account:user/"))
            #expect(authorization.contains("/eu-west-3/s3/aws4_request"))
            #expect(authorization.contains("x-amz-content-sha256"))
            #expect(!authorization.contains("SECRET-NOT-SENT"))
            #expect(!"\(signed)".contains("SECRET-NOT-SENT"))
        }
    }

    @Test func aSignedRequestReturnsARedirectInsteadOfFollowingIt() async throws {
        try await withFixture { server, loader in
            var signed = HTTPRequest(url: server.url("/hop/1"))
            signed.signing = AWSSigning(region: "us-east-1", service: "s3", accessKeyID: "a", secretAccessKey: "s")
            let response = try await loader.fetch(signed)
            #expect(response.status == 302)
            #expect(response.headers["location"] == "/hop/0")
        }
    }
}
