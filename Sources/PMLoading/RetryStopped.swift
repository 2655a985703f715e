/// A request that failed, whose retry its host's pause then refused (`HTTPError.hostPaused`,
/// asked for by another request's answer). What the request got is its own story: `response`
/// (an error status) or `error`; the pause only says why it was not tried again.
public struct RetryStopped: Error, Sendable, CustomStringConvertible {
    /// The last answer the request got, when its last try was answered.
    public let response: HTTPResponse?
    /// The last try's failure, when it got no answer.
    public let error: HTTPError?
    /// What refused the next try.
    public let stop: HTTPError

    public init(response: HTTPResponse?, error: HTTPError?, stop: HTTPError) {
        self.response = response
        self.error = error
        self.stop = stop
    }

    /// The last try's outcome, then the pause: "HTTP 500; not retried: … asked for no requests …".
    public var description: String {
        let outcome = response.map { "HTTP \($0.status)" } ?? error.map(\.description) ?? "no answer"
        return "\(outcome); \(Self.notRetried(stop))"
    }

    public static func notRetried(_ stop: HTTPError) -> String {
        "not retried: \(stop)"
    }
}
