extension S3Client {
    /// Every object whose key starts with `prefix`, in key order, following ListObjectsV2's
    /// continuation tokens; `pageSize` (at most 1000, S3's cap) keys per request.
    public func listObjects(bucket: String, prefix: String = "", pageSize: Int = 1000) async throws(S3Error) -> [S3ObjectSummary] {
        var objects: [S3ObjectSummary] = []
        var token: String?
        repeat {
            let page = try await listObjectsPage(bucket: bucket, prefix: prefix, continuationToken: token, maxKeys: pageSize)
            objects += page.objects
            if let next = page.nextContinuationToken, next == token {
                throw malformed("ListObjectsV2", bucket: bucket, "the listing returned the same continuation token twice")
            }
            token = page.nextContinuationToken
        } while token != nil
        return objects
    }

    /// One page of at most `maxKeys` objects under `prefix`, from `continuationToken` on.
    public func listObjectsPage(bucket: String, prefix: String = "", continuationToken: String? = nil,
                                maxKeys: Int = 1000) async throws(S3Error) -> S3ListPage {
        var query: S3Query = ["list-type": "2", "max-keys": String(min(1000, max(1, maxKeys)))]
        if !prefix.isEmpty { query.add("prefix", prefix) }
        if let continuationToken { query.add("continuation-token", continuationToken) }
        let response = try await send("ListObjectsV2", method: .get, bucket: bucket, query: query)
        switch S3ListPage.parse(response.body) {
        case .success(let page): return page
        case .failure(let problem): throw malformed("ListObjectsV2", bucket: bucket, problem.detail)
        }
    }
}
