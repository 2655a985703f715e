/// Request URLs for a configuration. Path-style (`ENDPOINT/BUCKET/KEY`) for an endpoint, as
/// S3-compatible services expect; virtual-host style for AWS, except for bucket names with dots,
/// whose virtual host would not match AWS's wildcard TLS certificate.
struct S3Addressing: Sendable {
    let endpoint: String?
    let region: String

    func url(bucket: String, key: String? = nil, query: S3Query = [:]) -> String {
        let bucketURL: String
        let isVirtualHost: Bool
        if let endpoint {
            (bucketURL, isVirtualHost) = ("\(endpoint)/\(bucket)", false)
        } else if bucket.contains(".") {
            (bucketURL, isVirtualHost) = ("https://s3.\(region).amazonaws.com/\(bucket)", false)
        } else {
            (bucketURL, isVirtualHost) = ("https://\(bucket).s3.\(region).amazonaws.com", true)
        }
        // On a virtual host the bucket is the root, whose path is "/" rather than empty.
        let path = key.map { "/" + S3Encoding.path($0) } ?? (isVirtualHost ? "/" : "")
        let encodedQuery = query.encoded
        return bucketURL + path + (encodedQuery.isEmpty ? "" : "?" + encodedQuery)
    }
}
