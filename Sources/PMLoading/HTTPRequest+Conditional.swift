extension HTTPRequest {
    /// The headers that ask a server whether the copy it gave with these validators is still
    /// current. Empty when there are none: such a server simply gets an unconditional request.
    public static func conditionalHeaders(etag: String?, lastModified: String?) -> [String: String] {
        var headers: [String: String] = [:]
        if let etag, !etag.isEmpty { headers["If-None-Match"] = etag }
        if let lastModified, !lastModified.isEmpty { headers["If-Modified-Since"] = lastModified }
        return headers
    }

    /// Adds `conditionalHeaders` to the request's own (feed and media revalidation share this).
    public mutating func addConditions(etag: String?, lastModified: String?) {
        headers.merge(Self.conditionalHeaders(etag: etag, lastModified: lastModified)) { _, new in new }
    }
}
