import Testing
@testable import PMLoading

@Suite struct ConnectionOptionsTests {
    @Test func curlsVariableWinsOverOpenSSLs() {
        let environment = ["CURL_CA_BUNDLE": "/etc/curl.pem", "SSL_CERT_FILE": "/etc/openssl.pem"]
        #expect(CertificateBundle.fromEnvironment(environment) == CertificateBundle(path: "/etc/curl.pem"))
    }

    @Test func openSSLsVariableAloneIsRead() {
        #expect(CertificateBundle.fromEnvironment(["SSL_CERT_FILE": "/tmp/ca.pem"]) == CertificateBundle(path: "/tmp/ca.pem"))
    }

    @Test func blankOrMissingVariablesLeaveLibcurlsBundle() {
        #expect(CertificateBundle.fromEnvironment([:]) == nil)
        #expect(CertificateBundle.fromEnvironment(["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": " "]) == nil)
        #expect(CertificateBundle.fromEnvironment(["CURL_CA_BUNDLE": " ", "SSL_CERT_FILE": "/tmp/ca.pem"])
            == CertificateBundle(path: "/tmp/ca.pem"))
    }

    @Test func onlyTLSRequestsWaitForAMultiplexedConnection() {
        #expect(HTTPRequest(url: "https://live.staticflickr.com/1/2_b.jpg").waitsForMultiplexing)
        #expect(HTTPRequest(url: "HTTPS://example.org/a.jpg").waitsForMultiplexing)
        #expect(!HTTPRequest(url: "http://example.org/a.jpg").waitsForMultiplexing)
    }
}
