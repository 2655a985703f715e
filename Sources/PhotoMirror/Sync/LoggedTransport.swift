import Foundation
import PMLoading

/// One request a sync made, for `sync --verbose`: each attempt of each request, as the transport
/// saw it.
public struct RequestLine: Sendable {
    /// Without user info or secret parameters (`Redaction`).
    public var url: String
    /// Nil when no response came (the error says why).
    public var status: Int?
    public var bytes: Int
    public var seconds: Double
    public var error: String?
}

/// A transport that tells `log` of every request it carried, then answers as `base` does.
struct LoggedTransport: HTTPTransport {
    let base: any HTTPTransport
    let log: @Sendable (RequestLine) -> Void

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let started = Date()
        do {
            let response = try await base.fetch(request)
            log(RequestLine(url: Redaction.url(request.url), status: response.status, bytes: response.body.count,
                            seconds: Date().timeIntervalSince(started)))
            return response
        } catch {
            log(RequestLine(url: Redaction.url(request.url), status: nil, bytes: 0, seconds: Date().timeIntervalSince(started),
                            error: "\(error)"))
            throw error
        }
    }

    var waitsOutRetryAfter: Bool { base.waitsOutRetryAfter }

    func shutdown() { base.shutdown() }
}
