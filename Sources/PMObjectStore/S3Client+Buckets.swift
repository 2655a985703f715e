extension S3Client {
    /// Creates `bucket`, or does nothing when this account already owns it.
    public func createBucket(_ bucket: String) async throws(S3Error) {
        var body: [UInt8]?
        // us-east-1 is S3's default and refuses to be named; every other region must be.
        if configuration.region != S3Configuration.defaultRegion {
            body = Array(("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<LocationConstraint>\(configuration.region)</LocationConstraint></CreateBucketConfiguration>").utf8)
        }
        do throws(S3Error) {
            _ = try await send("CreateBucket", method: .put, bucket: bucket,
                               headers: body == nil ? [:] : ["Content-Type": "application/xml"], body: body)
        } catch where error.code == "BucketAlreadyOwnedByYou" {
            return
        }
    }

    /// Lets anyone read the bucket's objects (the canned ACL `public-read`), so a browser or
    /// CDN can serve the gallery from it.
    public func setBucketPublicRead(_ bucket: String) async throws(S3Error) {
        _ = try await send("PutBucketAcl", method: .put, bucket: bucket, query: ["acl": ""],
                           headers: ["x-amz-acl": "public-read"])
    }

    /// Deletes an empty bucket.
    public func deleteBucket(_ bucket: String) async throws(S3Error) {
        _ = try await send("DeleteBucket", method: .delete, bucket: bucket)
    }
}
