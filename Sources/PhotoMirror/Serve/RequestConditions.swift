import Foundation
import PMLoading

/// A GET's or HEAD's conditional headers against a file's validators, evaluated in the order
/// RFC 9110 §13.2.2 gives: `If-Match` (else `If-Unmodified-Since`) can fail the request, then
/// `If-None-Match` (else `If-Modified-Since`) can make it a 304.
public struct RequestConditions: Equatable, Sendable {
    public var ifMatch: String?
    public var ifUnmodifiedSince: String?
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?

    public init(ifMatch: String? = nil, ifUnmodifiedSince: String? = nil, ifNoneMatch: String? = nil,
                ifModifiedSince: String? = nil) {
        self.ifMatch = ifMatch; self.ifUnmodifiedSince = ifUnmodifiedSince
        self.ifNoneMatch = ifNoneMatch; self.ifModifiedSince = ifModifiedSince
    }

    public enum Outcome: Equatable, Sendable {
        case proceed
        case notModified
        case preconditionFailed
    }

    /// `modifiedSeconds`: the file's modification time in whole seconds, as `Last-Modified`
    /// says it (HTTP dates have no fractions).
    public func evaluate(tag: String, modifiedSeconds: Int) -> Outcome {
        if let ifMatch {
            guard EntityTag.matches(ifMatch: ifMatch, tag: tag) else { return .preconditionFailed }
        } else if let since = ifUnmodifiedSince.flatMap(HTTPDate.parse), modifiedSeconds > Int(since.timeIntervalSince1970) {
            return .preconditionFailed
        }
        if let ifNoneMatch {
            return EntityTag.matches(ifNoneMatch: ifNoneMatch, tag: tag) ? .notModified : .proceed
        }
        if let since = ifModifiedSince.flatMap(HTTPDate.parse), modifiedSeconds <= Int(since.timeIntervalSince1970) {
            return .notModified
        }
        return .proceed
    }
}
