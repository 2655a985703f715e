import PMLoading
import Testing
@testable import PMObjectStore

@Suite struct S3ErrorTests {
    @Test func theTextNamesOperationTargetStatusCodeAndMessage() {
        let error = S3Error(operation: "PutObject", bucket: "photos", key: "originals/a.jpg",
                            reason: .service(status: 403, code: "AccessDenied", message: "Access Denied"))
        #expect(error.description == "S3 PutObject of s3://photos/originals/a.jpg failed: HTTP 403 AccessDenied: Access Denied")
        #expect(error.code == "AccessDenied")
        #expect(error.status == 403)
    }

    @Test func otherReasonsReadPlainly() {
        let head = S3Error(operation: "HeadObject", bucket: "photos", key: "k", reason: .service(status: 500, code: nil, message: nil))
        #expect(head.description == "S3 HeadObject of s3://photos/k failed: HTTP 500")
        let list = S3Error(operation: "ListObjectsV2", bucket: "photos", reason: .malformedResponse("not XML"))
        #expect(list.description == "S3 ListObjectsV2 of s3://photos failed: unexpected answer (not XML)")
        let cancelled = S3Error(operation: "GetObject", bucket: "photos", key: "k", reason: .transport(.cancelled))
        #expect(cancelled.isCancelled)
        #expect(cancelled.description == "S3 GetObject of s3://photos/k failed: request cancelled")
        #expect(cancelled.code == nil)
    }

    @Test func redactionBlanksTheSecretWhereverItWasEchoed() {
        let secret = "wJalrXUtnFEMI/K7MDENG"
        let reasons: [S3Error.Reason] = [
            .service(status: 403, code: "X" + secret, message: "bad key " + secret),
            .transport(.transport(code: 7, message: "failed for " + secret)),
            .malformedResponse(secret),
            .invalidRequest("metadata " + secret),
        ]
        for reason in reasons {
            let error = S3Error(operation: "PutObject", bucket: "b", key: "k", reason: reason).redacting(secret)
            #expect(!error.description.contains(secret), "\(error)")
            #expect(!String(reflecting: error).contains(secret))
        }
    }
}
