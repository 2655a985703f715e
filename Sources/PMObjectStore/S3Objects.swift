import Foundation
import PMLoading

/// An object as a listing describes it.
public struct S3ObjectSummary: Sendable, Equatable {
    public var key: String
    public var size: Int
    /// Without the quotes S3 puts around it; the hex MD5 for objects put in one request.
    public var etag: String
    public var lastModified: Date?

    public init(key: String, size: Int, etag: String, lastModified: Date?) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a HEAD (or the headers of a GET) say about an object.
public struct S3ObjectInfo: Sendable, Equatable {
    public var size: Int
    /// Without the quotes.
    public var etag: String
    public var lastModified: Date?
    public var contentType: String?
    public var cacheControl: String?
    /// `x-amz-meta-*` headers by their lower-cased names without the prefix (`sha256`).
    public var metadata: [String: String]

    public init(size: Int, etag: String, lastModified: Date?, contentType: String?, cacheControl: String?,
                metadata: [String: String]) {
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.metadata = metadata
    }

    /// From the response's headers (lower-cased names, as `HTTPResponse` keeps them).
    init(headers: [String: String]) {
        size = headers["content-length"].flatMap { Int($0) } ?? 0
        etag = unquoted(headers["etag"] ?? "")
        lastModified = headers["last-modified"].flatMap(HTTPDate.parse)
        contentType = headers["content-type"]
        cacheControl = headers["cache-control"]
        var metadata: [String: String] = [:]
        for (name, value) in headers where name.hasPrefix("x-amz-meta-") {
            metadata[String(name.dropFirst("x-amz-meta-".count))] = value
        }
        self.metadata = metadata
    }
}

/// A fetched object: its bytes, the SHA-256 computed while they arrived, and its headers.
public struct S3Object: Sendable, Equatable {
    public var bytes: [UInt8]
    /// Lower-case hex SHA-256 of `bytes`.
    public var sha256: String
    public var info: S3ObjectInfo

    public init(bytes: [UInt8], sha256: String, info: S3ObjectInfo) {
        self.bytes = bytes
        self.sha256 = sha256
        self.info = info
    }
}

/// A key that DeleteObjects could not delete, with S3's reason.
public struct S3DeleteFailure: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var code: String
    public var message: String

    public init(key: String, code: String, message: String) {
        self.key = key
        self.code = code
        self.message = message
    }

    public var description: String { "\(key): \(code)\(message.isEmpty ? "" : " (\(message))")" }
}

/// `"abc"` → `abc`; S3 quotes ETags in headers and listings alike.
func unquoted(_ etag: String) -> String {
    let text = trimmed(etag)
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
    return String(text.dropFirst().dropLast())
}
