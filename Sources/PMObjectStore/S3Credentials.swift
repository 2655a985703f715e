/// An access key pair, and the session token that temporary (STS) credentials come with.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
                             CustomReflectable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The access key only: configurations end up in logs and test failures (`dump` included).
    public var description: String {
        "S3Credentials(\(accessKeyID), secret redacted\(sessionToken == nil ? "" : ", session token redacted"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "(redacted)",
                                "sessionToken": sessionToken == nil ? "nil" : "(redacted)"])
    }
}
