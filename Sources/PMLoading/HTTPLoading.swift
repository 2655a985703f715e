/// Fetches URLs. `CurlLoader` is the real one; tests of other modules can substitute their own.
public protocol HTTPLoading: Sendable {
    /// Returns every HTTP status (304 and 404 included); throws `HTTPError` only when no
    /// response was obtained. Task cancellation throws `HTTPError.cancelled`.
    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse

    /// True when the loader itself holds back the next request to a host that answered 429 or
    /// 503 with `Retry-After` (`PoliteLoader`): a retry above it need not sleep that pause out.
    var waitsOutRetryAfter: Bool { get }
}

extension HTTPLoading {
    public var waitsOutRetryAfter: Bool { false }
}

/// The loader at the bottom of a sync's stack, which owns resources (a thread, connections)
/// that `shutdown` lets go of. `CurlLoader` is the real one.
public protocol HTTPTransport: HTTPLoading {
    /// Stops; pending and later requests fail with `HTTPError.cancelled`. Idempotent.
    func shutdown()
}
