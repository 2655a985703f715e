import Testing
@testable import PMObjectStore

/// An endpoint URL's password is never echoed.
@Suite struct EndpointRedactionTests {
    @Test func aBadEndpointIsShownWithoutItsUserInfo() {
        let environment = ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                           "AWS_ENDPOINT_URL_S3": "http://AKIA:TOPSECRETPW@127.0.0.1:1/ x"]
        do {
            _ = try S3Configuration.fromEnvironment(environment)
            Issue.record("a URL with a space is no endpoint")
        } catch {
            #expect(!error.description.contains("TOPSECRETPW"), "\(error)")
            #expect(error.description.contains("AWS_ENDPOINT_URL_S3 'http://127.0.0.1:1/ x'"), "\(error)")
        }
    }
}
