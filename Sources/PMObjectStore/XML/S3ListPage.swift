import Foundation

/// One page of a ListObjectsV2 answer (`<ListBucketResult>`).
public struct S3ListPage: Sendable, Equatable {
    public var objects: [S3ObjectSummary]
    /// Present when the listing goes on: pass it to get the next page.
    public var nextContinuationToken: String?

    public init(objects: [S3ObjectSummary], nextContinuationToken: String?) {
        self.objects = objects
        self.nextContinuationToken = nextContinuationToken
    }

    /// The page, or why the body is not one. A truncated page must say where to go on, or a
    /// listing would either stop short or ask for the same page forever.
    static func parse(_ bytes: [UInt8]) -> Result<S3ListPage, ListPageProblem> {
        guard let root = S3XMLElement.parse(bytes) else { return .failure(.init("the listing is not well-formed XML")) }
        guard root.name == "ListBucketResult" else { return .failure(.init("expected ListBucketResult, got \(root.name)")) }
        var objects: [S3ObjectSummary] = []
        for contents in root.children("Contents") {
            guard let key = contents.childText("Key"), !key.isEmpty else {
                return .failure(.init("an entry of the listing has no Key"))
            }
            guard let size = contents.childText("Size").flatMap({ Int(trimmed($0)) }), size >= 0 else {
                return .failure(.init("the listing's entry for '\(key)' has no valid Size"))
            }
            objects.append(S3ObjectSummary(key: key, size: size, etag: unquoted(contents.childText("ETag") ?? ""),
                                           lastModified: contents.childText("LastModified").flatMap(ISO8601Parsing.parse)))
        }
        let isTruncated = root.childText("IsTruncated").map { trimmed($0).lowercased() == "true" } ?? false
        let token = root.childText("NextContinuationToken").map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        if isTruncated, token == nil {
            return .failure(.init("the listing is truncated but has no NextContinuationToken"))
        }
        return .success(S3ListPage(objects: objects, nextContinuationToken: isTruncated ? token : nil))
    }
}

struct ListPageProblem: Error, Equatable {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}

/// S3's listing timestamps: `2026-12-01T10:58:40.000Z`, with or without the fraction.
enum ISO8601Parsing {
    static func parse(_ text: String) -> Date? {
        try? Date(trimmed(text), strategy: .iso8601)
    }
}
