import Foundation
import PMSupport

/// Where the bucket lives and who signs: an S3-compatible endpoint (path-style addressing, as
/// those services expect) or AWS itself (virtual-host style, `BUCKET.s3.REGION.amazonaws.com`).
public struct S3Configuration: Sendable, Equatable, CustomStringConvertible {
    public static let defaultRegion = "us-east-1"

    /// `http(s)://host[:port][/path]` without a trailing slash; nil addresses AWS.
    public var endpoint: String?
    public var region: String
    public var credentials: S3Credentials
    /// Upper bound on one request, in seconds. Generous because an original can be tens of MB;
    /// a stalled transfer fails sooner, on the loader's stall timeout.
    public var requestTimeout: Double = 300

    public init(endpoint: String? = nil, region: String = S3Configuration.defaultRegion, credentials: S3Credentials) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
    }

    /// The AWS SDKs' variables: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, optionally
    /// `AWS_SESSION_TOKEN`, `AWS_REGION` (default us-east-1) and the endpoint from
    /// `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`. Empty values count as unset.
    public static func fromEnvironment(_ environment: [String: String]) throws(S3ConfigurationError) -> S3Configuration {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        let missing = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"].filter { value($0) == nil }
        guard missing.isEmpty, let accessKeyID = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
            throw S3ConfigurationError("\(missing.joined(separator: " and ")) must be set to reach an S3 store")
        }
        let region = value("AWS_REGION") ?? defaultRegion
        guard isValidRegion(region) else {
            throw S3ConfigurationError("AWS_REGION '\(region)' is not a region name (letters, digits and '-')")
        }
        var endpoint: String?
        for name in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"] {
            guard let text = value(name) else { continue }
            guard let normalized = normalizedEndpoint(text) else {
                // Shown without user info: an endpoint URL may carry a password.
                throw S3ConfigurationError("\(name) '\(URLRedaction.redacted(text))' is not an http:// or https:// URL with a host")
            }
            endpoint = normalized
            break
        }
        let credentials = S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secret,
                                        sessionToken: value("AWS_SESSION_TOKEN"))
        return S3Configuration(endpoint: endpoint, region: region, credentials: credentials)
    }

    /// The region goes into libcurl's `aws:amz:REGION:s3`, where a colon would end it early.
    static func isValidRegion(_ region: String) -> Bool {
        !region.isEmpty && region.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// `http(s)://host…` without trailing slashes, or nil when it is not such a URL (or carries
    /// a query, a fragment or credentials, which have no place in an endpoint).
    static func normalizedEndpoint(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return nil }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let rest = trimmed.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != ":" }
        guard !host.isEmpty, !rest.contains(where: { "?#@ ".contains($0) }) else { return nil }
        return String(trimmed)
    }

    /// The signing provider libcurl takes for this region.
    var signingProvider: String { "aws:amz:\(region):s3" }

    public var description: String {
        "S3Configuration(\(endpoint ?? "AWS"), \(region), \(credentials))"
    }
}

/// The environment does not describe a usable S3 store.
public struct S3ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
