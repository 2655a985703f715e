import Foundation
import PMLoading
import Synchronization

/// HTTP in memory: the transport seam's fake. Each URL answers what `serve` set (with its
/// ETag honoured for conditional requests), anything else 404; every request is logged.
final class MemoryTransport: HTTPTransport {
    struct Route: Sendable {
        var status = 200
        var body: [UInt8]
        var headers: [String: String] = [:]
    }

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [String] = []
    }

    private let state = Mutex(State())

    /// "GET url status" per request, in order.
    var requests: [String] { state.withLock { $0.requests } }

    func serve(_ url: String, _ body: [UInt8], status: Int = 200, headers: [String: String] = [:]) {
        state.withLock { $0.routes[url] = Route(status: status, body: body, headers: headers) }
    }

    func clearLog() {
        state.withLock { $0.requests = [] }
    }

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let route = state.withLock { $0.routes[request.url] } ?? Route(status: 404, body: Array("not found".utf8))
        var response = HTTPResponse(url: request.url, status: route.status, headers: route.headers, body: route.body)
        if let etag = route.headers["etag"], request.headers["If-None-Match"] == etag {
            response = HTTPResponse(url: request.url, status: 304, headers: route.headers, body: [])
        }
        let status = response.status
        state.withLock { $0.requests.append("GET \(request.url) \(status)") }
        return response
    }

    func shutdown() {}
}
