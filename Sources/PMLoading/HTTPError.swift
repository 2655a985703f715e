/// Why a fetch produced no response. HTTP error statuses are not errors here; see `HTTPResponse`.
public enum HTTPError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Anything but http/https, in the request or in a redirect's Location.
    case unsupportedScheme(String)
    /// The body (declared or streamed) exceeded `HTTPRequest.maxBytes`.
    case tooLarge(limit: Int)
    /// `seconds` is the limit that fired: `stallTimeout` for a stall, else `timeout`.
    case timedOut(seconds: Double)
    case tooManyRedirects(Int)
    /// Any other libcurl failure; `message` is libcurl's own explanation (CURLOPT_ERRORBUFFER).
    case transport(code: Int, message: String)
    /// The calling task was cancelled or the loader was shut down.
    case cancelled
    /// The host (`Origin`) answered 429 or 503 with a `Retry-After` of `seconds`, longer than the
    /// `limit` a run waits out: no request goes to it again in this run.
    case hostPaused(origin: String, seconds: Double, limit: Double)

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme):
            "unsupported URL scheme '\(scheme)' (only http and https are fetched)"
        case .tooLarge(let limit):
            "response body larger than the \(limit)-byte limit"
        case .timedOut(let seconds):
            "timed out after \(seconds) s"
        case .tooManyRedirects(let limit):
            "more than \(limit) redirects"
        case .transport(let code, let message):
            "transfer failed (curl error \(code)): \(message)"
        case .cancelled:
            "request cancelled"
        case .hostPaused(let origin, let seconds, let limit):
            "\(origin) asked for no requests for \(Int(seconds.rounded(.up))) s (Retry-After), longer than the "
                + "\(Int(limit)) s a sync waits: not asked again in this sync"
        }
    }
}
