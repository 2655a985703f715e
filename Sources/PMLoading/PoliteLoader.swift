/// Wraps a loader with `HostGate`: every request waits for its host's turn (`--per-host`,
/// `--rate`, a `Retry-After` pause), and every answer tells the gate how the host is doing.
/// Put it below `RetryingLoader`, so that a retry waits for its host like any request and a
/// request that waits holds nothing else. An answer that asks for too long a pause ends its
/// request in `RetryStopped`, its status first.
public struct PoliteLoader: HTTPLoading {
    public let base: any HTTPLoading
    public let gate: HostGate

    public init(base: any HTTPLoading, gate: HostGate) {
        self.base = base
        self.gate = gate
    }

    public var waitsOutRetryAfter: Bool { true }

    public func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let origin = Origin.of(request.url)
        try await gate.admit(origin)
        let response: HTTPResponse
        do {
            response = try await base.fetch(request)
        } catch {
            await gate.finish(origin, response: nil)
            throw error
        }
        if let refusal = await gate.finish(origin, response: response) {
            throw RetryStopped(response: response, error: nil, stop: refusal)
        }
        return response
    }
}
