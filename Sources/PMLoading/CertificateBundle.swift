import Foundation

/// The file of CA certificates that TLS peers are checked against in place of libcurl's built-in
/// bundle (CURLOPT_CAINFO, as `curl --cacert` sets it; libcurl's CA folder, if it was built with
/// one, stays trusted). libcurl reads no environment for this, only the curl tool does, so the
/// loader takes it from the variables the curl tool and OpenSSL read: one setting then serves
/// photomirror and `curl` alike.
public struct CertificateBundle: Sendable, Equatable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The variables, the first one set (not blank) winning: curl's own before OpenSSL's.
    public static let variables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"]

    public static func fromEnvironment(_ environment: [String: String]) -> CertificateBundle? {
        for name in variables {
            if let path = environment[name]?.trimmingCharacters(in: .whitespaces), !path.isEmpty {
                return CertificateBundle(path: path)
            }
        }
        return nil
    }
}
