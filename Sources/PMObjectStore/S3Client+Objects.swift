extension S3Client {
    /// Stores `bytes` under `key`, replacing any object there, and returns its ETag (unquoted).
    /// `metadata` becomes `x-amz-meta-NAME` headers, which S3 returns with the object. `sha256`,
    /// the bytes' lower-case hex SHA-256 when the caller has it, spares hashing them again; the
    /// store refuses bytes that do not match it (BadDigest).
    @discardableResult
    public func putObject(bucket: String, key: String, bytes: [UInt8], contentType: String, cacheControl: String? = nil,
                          metadata: [String: String] = [:], sha256: String? = nil) async throws(S3Error) -> String {
        if let problem = metadata.lazy.compactMap({ S3Names.metadataProblem($0.key, $0.value) }).first {
            throw S3Error(operation: "PutObject", bucket: bucket, key: key, reason: .invalidRequest(problem))
        }
        var headers = ["Content-Type": contentType]
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        for (name, value) in metadata { headers["x-amz-meta-" + name.lowercased()] = value }
        let response = try await send("PutObject", method: .put, bucket: bucket, key: key, headers: headers, body: bytes,
                                      bodySHA256: sha256)
        return unquoted(response.etag ?? "")
    }

    /// The object's size, ETag, dates and metadata, or nil when there is no such key.
    public func headObject(bucket: String, key: String) async throws(S3Error) -> S3ObjectInfo? {
        let response = try await send("HeadObject", method: .head, bucket: bucket, key: key, accepting: [404])
        return response.status == 404 ? nil : S3ObjectInfo(headers: response.headers)
    }

    /// The object, or nil when there is no such key (a missing bucket is an error).
    /// Larger objects than `maxBytes` fail with `HTTPError.tooLarge`.
    public func getObject(bucket: String, key: String, maxBytes: Int = 50_000_000) async throws(S3Error) -> S3Object? {
        let response = try await send("GetObject", method: .get, bucket: bucket, key: key, maxBytes: maxBytes,
                                      accepting: [404])
        if response.status == 404 {
            let body = S3ErrorBody.parse(response.body)
            guard body?.code == nil || body?.code == "NoSuchKey" else {
                throw S3Error(operation: "GetObject", bucket: bucket, key: key,
                              reason: .service(status: 404, code: body?.code, message: body?.message))
            }
            return nil
        }
        return S3Object(bytes: response.body, sha256: response.sha256, info: S3ObjectInfo(headers: response.headers))
    }
}
