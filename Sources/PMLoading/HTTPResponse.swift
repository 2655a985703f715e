import PMSupport

/// A completed transfer. Any HTTP status is a response, not an error: the caller decides
/// what a 304 or 404 means for its mirror.
public struct HTTPResponse: Sendable, Equatable, CustomStringConvertible {
    /// The URL that was requested.
    public let url: String
    /// The URL that answered, after redirects.
    public let effectiveURL: String
    public let status: Int
    /// Lower-cased names, final response only (redirect hops are dropped). Repeated
    /// headers are joined with ", " as RFC 9110 allows.
    public let headers: [String: String]
    public let body: [UInt8]
    /// Lower-case hex SHA-256 of `body`.
    public let sha256: String
    /// The zone of the first address the request connected to, when it had an `AddressRule`:
    /// a feed's home (`AddressRule.learnsHome`).
    public var zone: AddressZone?

    /// `sha256` is computed from `body` when not given, which keeps test doubles honest.
    public init(url: String, effectiveURL: String? = nil, status: Int, headers: [String: String] = [:],
                body: [UInt8], sha256: String? = nil) {
        self.url = url
        self.effectiveURL = effectiveURL ?? url
        self.status = status
        self.headers = headers
        self.body = body
        self.sha256 = sha256 ?? Digest.sha256Hex(body)
    }

    public var etag: String? { headers["etag"] }
    public var lastModified: String? { headers["last-modified"] }
    public var contentType: String? { headers["content-type"] }
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Summarises the body: test failures and logs should not print megabytes of integers.
    public var description: String {
        "HTTPResponse(\(status), \(body.count) bytes, \(effectiveURL))"
    }
}
