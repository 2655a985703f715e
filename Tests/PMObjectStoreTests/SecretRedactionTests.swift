import PMLoading
import PMSupport
import Testing
@testable import PMObjectStore

/// A short secret is blanked where a credential can stand, never inside unrelated words.
@Suite struct SecretRedactionTests {
    @Test func aOneLetterSecretLeavesWordsThatContainItWhole() {
        let text = "Could not resolve host: my-bucket.s3.yonder.example; retry by yourself"
        #expect(SecretRedaction.redacting("y", in: text) == text)
        let error = S3Error(operation: "PutObject", bucket: "my-bucket", key: "k",
                            reason: .transport(.transport(code: 6, message: "Could not resolve host: my-bucket.yonder")))
            .redacting("y")
        #expect(error.description == "S3 PutObject of s3://my-bucket/k failed: transfer failed (curl error 6): Could not resolve host: my-bucket.yonder")
    }

    @Test func aOneLetterSecretInACredentialPositionIsBlanked() {
        let cases = [
            ("GET /b?X-Amz-Signature=y&X-Amz-Credential=AKID%2F2026 HTTP/1.1", "GET /b?X-Amz-Signature=(redacted)&X-Amz-Credential=(redacted) HTTP/1.1"),
            ("Authorization: AWS4-HMAC-SHA256 Credential=AKID/x, Signature=y\nHost: yonder", "Authorization: (redacted)\nHost: yonder"),
            ("signed with Credential=AKID/y, Signature=y", "signed with Credential=(redacted), Signature=(redacted)"),
            ("bad request http://AKID:y@127.0.0.1:9/b", "bad request http://(redacted)@127.0.0.1:9/b"),
            ("the key y is not valid", "the key (redacted) is not valid"),
            ("secret=y", "secret=(redacted)"),
        ]
        for (text, expected) in cases {
            let redacted = SecretRedaction.redacting("y", in: text)
            #expect(redacted == expected, "\(text)")
        }
    }

    @Test func aLongSecretIsBlankedWhereverItOccursPlainOrPercentEncoded() {
        let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
        let text = "echo X\(secret)X and ?sig2=wJalrXUtnFEMI%2FK7MDENG%2BbPxRfiCYEXAMPLEKEY"
        let redacted = SecretRedaction.redacting(secret, in: text)
        #expect(!redacted.contains(secret) && !redacted.contains("wJalrXUtnFEMI"), "\(redacted)")
        #expect(redacted.hasPrefix("echo X(redacted)X and"))
    }
}
