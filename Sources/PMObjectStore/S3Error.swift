import Foundation
import PMLoading
import PMSupport

/// A failed S3 operation: which one, on which bucket and key, and why, with S3's own error
/// `Code` and `Message` when it sent them. Its text never holds the secret key.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// S3 answered with an error status; `code` and `message` come from its XML body (a HEAD has none).
        case service(status: Int, code: String?, message: String?)
        /// No answer: connection, timeout, size limit or cancellation.
        case transport(HTTPError)
        /// A 2xx answer whose body is not what the operation returns.
        case malformedResponse(String)
        /// Refused before sending: a bad bucket name, key, header value or metadata.
        case invalidRequest(String)
    }

    /// S3's name for the operation: `PutObject`, `ListObjectsV2`, …
    public let operation: String
    public let bucket: String
    public let key: String?
    public let reason: Reason

    public init(operation: String, bucket: String, key: String? = nil, reason: Reason) {
        self.operation = operation
        self.bucket = bucket
        self.key = key
        self.reason = reason
    }

    /// S3's error code, e.g. `NoSuchBucket`, `SignatureDoesNotMatch`, `SlowDown`.
    public var code: String? {
        if case .service(_, let code, _) = reason { return code }
        return nil
    }

    public var status: Int? {
        if case .service(let status, _, _) = reason { return status }
        return nil
    }

    public var isCancelled: Bool { reason == .transport(.cancelled) }

    public var description: String {
        let target = "s3://\(bucket)" + (key.map { "/" + $0 } ?? "")
        return "S3 \(operation) of \(target) failed: " + Self.describe(reason)
    }

    private static func describe(_ reason: Reason) -> String {
        switch reason {
        case .service(let status, let code, let message):
            var text = "HTTP \(status)"
            if let code { text += " \(code)" }
            if let message, !message.isEmpty { text += ": \(message)" }
            return text
        case .transport(let error):
            return error.description
        case .malformedResponse(let detail):
            return "unexpected answer (\(detail))"
        case .invalidRequest(let detail):
            return "not sent: \(detail)"
        }
    }

    /// The same error with `secret` blanked where the service or libcurl echoed it, so no
    /// message can leak it whatever a server puts in its error text; other text, which may
    /// share its letters, stays whole (`SecretRedaction`).
    func redacting(_ secret: String) -> S3Error {
        let blank = { (text: String) in SecretRedaction.redacting(secret, in: text) }
        let redacted: Reason
        switch reason {
        case .service(let status, let code, let message):
            redacted = .service(status: status, code: code.map(blank), message: message.map(blank))
        case .transport(.transport(let code, let message)):
            redacted = .transport(.transport(code: code, message: blank(message)))
        case .malformedResponse(let detail):
            redacted = .malformedResponse(blank(detail))
        case .invalidRequest(let detail):
            redacted = .invalidRequest(blank(detail))
        case .transport:
            redacted = reason
        }
        return S3Error(operation: operation, bucket: bucket, key: key, reason: redacted)
    }
}
