/// What libcurl needs to sign a request with AWS Signature V4 (CURLOPT_AWS_SIGV4): the provider
/// string, e.g. `aws:amz:us-east-1:s3`, and the key pair as user and password.
///
/// libcurl 7.88 neither adds nor hashes `x-amz-content-sha256`; a caller whose service wants it
/// sends it as a header, which libcurl then signs with the others. The query string is signed as
/// written, so it must already be in the canonical form (sorted, AWS-%-encoded).
public struct AWSSigning: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
                          CustomReflectable {
    public var provider: String
    public var user: String
    public var password: String

    public init(provider: String, user: String, password: String) {
        self.provider = provider
        self.user = user
        self.password = password
    }

    /// `service` in `region`, e.g. `AWSSigning(region: "us-east-1", service: "s3", ...)`.
    public init(region: String, service: String, accessKeyID: String, secretAccessKey: String) {
        self.init(provider: "aws:amz:\(region):\(service)", user: accessKeyID, password: secretAccessKey)
    }

    /// Never the secret: requests end up in logs and test failures (`dump` included).
    public var description: String {
        "AWSSigning(\(provider), \(user), secret redacted)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["provider": provider, "user": user, "password": "(redacted)"])
    }
}
