import PMSupport

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
    /// The request's `AddressRule` refused a connection to `address`, of `zone`, for `url` (a
    /// redirect's target, maybe), the feed being at a `home` address.
    case refusedAddress(url: String, address: String, zone: AddressZone, home: AddressZone)
    /// The calling task was cancelled or the loader was shut down.
    case cancelled
    /// The host (`Origin`) answered 429 or 503 with a `Retry-After` of `seconds`, longer than the
    /// `limit` a run waits out: no request goes to it again in this run.
    case hostPaused(origin: String, seconds: Double, limit: Double)

    /// Whether the failure leaves the connection it happened on in doubt (an answer that is not
    /// HTTP, one cut short, a reset): such a request is retried on a new connection
    /// (`HTTPRequest.freshConnection`). A server that sent more body than its Content-Length
    /// said leaves the excess in front of the next answer on that connection, which then looks
    /// like HTTP/0.9 (CURLE_UNSUPPORTED_PROTOCOL for an http URL) or a weird reply.
    public var spoilsConnection: Bool {
        guard case .transport(let code, _) = self else { return false }
        return Self.connectionFaults.contains(code)
    }

    /// CURLE_UNSUPPORTED_PROTOCOL (for an http(s) URL, see `CurlTransfer`), WEIRD_SERVER_REPLY,
    /// HTTP2, PARTIAL_FILE, GOT_NOTHING, SEND_ERROR, RECV_ERROR, HTTP2_STREAM.
    static let connectionFaults: Set<Int> = [1, 8, 16, 18, 52, 55, 56, 92]

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
        case .refusedAddress(let url, let address, let zone, let home):
            "\(URLRedaction.redacted(url)): refused to connect to \(address), a \(zone.rawValue) address, for a feed at a \(home.rawValue) "
                + "address (a feed may reach public addresses and those of its own kind; --allow-private-addresses "
                + "allows every address)"
        case .cancelled:
            "request cancelled"
        case .hostPaused(let origin, let seconds, let limit):
            "\(origin) asked for no requests for \(Int(seconds.rounded(.up))) s (Retry-After), longer than the "
                + "\(Int(limit)) s a sync waits: not asked again in this sync"
        }
    }
}
