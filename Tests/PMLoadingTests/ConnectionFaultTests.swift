import Foundation
import Synchronization
import Testing
@testable import PMLoading

/// A failure that leaves its connection in doubt is retried on a new one.
@Suite struct ConnectionFaultTests {
    final class FailingOnce: HTTPLoading {
        private let sent = Mutex<[HTTPRequest]>([])
        let failure: HTTPError

        init(_ failure: HTTPError) { self.failure = failure }

        func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
            let count = sent.withLock { $0.append(request); return $0.count }
            if count == 1 { throw failure }
            return HTTPResponse(url: request.url, status: 200, body: [1])
        }

        var requests: [HTTPRequest] { sent.withLock { $0 } }
    }

    @Test func aSpoiledConnectionIsRetriedOnAFreshOne() async throws {
        let base = FailingOnce(.transport(code: 1, message: "the answer is not HTTP (Received HTTP/0.9 when not allowed)"))
        let loader = RetryingLoader(base: base, policy: RetryPolicy(attempts: 2, baseDelay: 0.01))
        _ = try await loader.fetch(HTTPRequest(url: "http://127.0.0.1:1/a.jpg"))
        #expect(base.requests.map(\.freshConnection) == [false, true])
    }

    @Test func aTimeoutIsRetriedOnAnyConnection() async throws {
        let base = FailingOnce(.timedOut(seconds: 1))
        let loader = RetryingLoader(base: base, policy: RetryPolicy(attempts: 2, baseDelay: 0.01))
        _ = try await loader.fetch(HTTPRequest(url: "http://127.0.0.1:1/a.jpg"))
        #expect(base.requests.map(\.freshConnection) == [false, false])
    }

    @Test func connectionFaultsAreNotSchemeProblems() {
        #expect(HTTPError.transport(code: 8, message: "Weird server reply").spoilsConnection)
        #expect(HTTPError.transport(code: 56, message: "Recv failure").spoilsConnection)
        #expect(!HTTPError.transport(code: 7, message: "Couldn't connect").spoilsConnection)
        #expect(!HTTPError.unsupportedScheme("file").spoilsConnection)
    }
}
