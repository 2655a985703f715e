import Foundation
import PMSupport

extension S3Client {
    /// Deletes `keys` with DeleteObjects, up to 1000 per request, and returns the keys S3 could
    /// not delete with its reasons. A key that was already gone counts as deleted, as in S3.
    public func deleteObjects(bucket: String, keys: [String]) async throws(S3Error) -> [S3DeleteFailure] {
        var failures: [S3DeleteFailure] = []
        for batch in S3DeleteDocuments.batches(keys) {
            if let problem = batch.lazy.compactMap(S3Names.keyProblem).first {
                throw S3Error(operation: "DeleteObjects", bucket: bucket, reason: .invalidRequest(problem))
            }
            guard let body = S3DeleteDocuments.request(keys: batch) else {
                throw S3Error(operation: "DeleteObjects", bucket: bucket,
                              reason: .invalidRequest("a key holds a control character that XML cannot carry"))
            }
            // S3 refuses a DeleteObjects without a digest of its body.
            let headers = ["Content-Type": "application/xml", "Content-MD5": Data(Digest.md5(body)).base64EncodedString()]
            let response = try await send("DeleteObjects", method: .post, bucket: bucket, query: ["delete": ""],
                                          headers: headers, body: body)
            guard let batchFailures = S3DeleteDocuments.failures(response.body) else {
                throw malformed("DeleteObjects", bucket: bucket, "the answer is not a DeleteResult")
            }
            failures += batchFailures
        }
        return failures
    }
}
