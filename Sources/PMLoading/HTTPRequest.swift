/// One HTTP request, a GET unless `method` says otherwise. Limits default to values safe for
/// mirroring untrusted photo feeds.
public struct HTTPRequest: Sendable, Equatable {
    public var url: String
    public var method: HTTPMethod = .get
    /// Sent with PUT and POST (which send an empty body when this is nil); ignored otherwise.
    /// A retry sends it again. Without a `Content-Type` header it goes as application/octet-stream.
    public var body: [UInt8]?
    /// When set, libcurl signs the request with AWS Signature V4. A signature holds for one host
    /// and path only, so a signed request does not follow redirects: the 3xx is its response.
    public var signing: AWSSigning?
    /// Extra request headers, e.g. `If-None-Match` / `If-Modified-Since` for revalidation.
    public var headers: [String: String] = [:]
    /// Upper bound on the whole transfer, redirects included, in seconds.
    public var timeout: Double = 30
    /// Abort when fewer than 1 byte/s arrived for this many seconds. libcurl measures
    /// stalls in whole seconds, so this is rounded up (minimum 1).
    public var stallTimeout: Double = 15
    /// Larger bodies fail with `HTTPError.tooLarge`: up front from Content-Length when the
    /// server sends one, otherwise as soon as the streamed (decoded) body crosses it.
    public var maxBytes: Int = 50_000_000
    public var maxRedirects: Int = 5
    /// Sent on a new connection, not one kept from an earlier transfer: `RetryingLoader` sets it
    /// for a retry after a failure that left the connection in doubt (`HTTPError.spoilsConnection`).
    public var freshConnection = false
    /// The addresses it may connect to (redirects included); nil allows every address.
    public var addressRule: AddressRule?

    public init(url: String) {
        self.url = url
    }

    var scheme: String { urlScheme(url) }
}

/// The lower-cased scheme of `url`, or `""` when it has none.
public func urlScheme(_ url: String) -> String {
    guard let colon = url.firstIndex(of: ":") else { return "" }
    return url[..<colon].lowercased()
}
