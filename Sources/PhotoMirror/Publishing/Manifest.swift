import Foundation
import PMCache

/// A feed's manifest (`feeds/<key>/manifest.json`): what a static client reads to find each
/// item's files. Paths are relative to the cache root.
public struct Manifest: Codable, Sendable, Equatable {
    public var url: String
    public var title: String
    public var kind: String
    public var link: String?
    public var attribution: String?
    public var syncedAt: String
    public var items: [Item]

    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var link: String?
        public var published: String?
        public var dateTaken: String?
        public var author: String?
        public var tags: [String]
        public var description: String?
        public var mediaURL: String?
        public var status: String
        public var error: String?
        public var sha256: String?
        public var original: String?
        public var thumbnail: String?
        public var thumbnails: [String: String]

        enum CodingKeys: String, CodingKey {
            case id, title, link, published, author, tags, description, status, error, sha256, original, thumbnail,
                 thumbnails
            case dateTaken = "date_taken"
            case mediaURL = "media_url"
        }
    }

    enum CodingKeys: String, CodingKey {
        case url, title, kind, link, attribution, items
        case syncedAt = "synced_at"
    }
}

/// The files the index has for one original, as the manifest names them.
struct StoredPaths: Sendable {
    var original: String?
    var thumbnails: [String: String]
}

/// Builds a manifest from index rows. Pure: the caller looks the paths up.
enum ManifestBuilder {
    static func build(feed: FeedRecord, items: [ItemRecord], paths: [String: StoredPaths], primarySize: String) -> Manifest {
        Manifest(
            url: feed.url, title: feed.title, kind: feed.kind, link: feed.link, attribution: feed.attribution,
            syncedAt: W3CTimestamp.format(feed.lastSync),
            items: items.map { item in
                let stored = item.sha256.flatMap { paths[$0] }
                return Manifest.Item(
                    id: item.itemID, title: item.title, link: item.link,
                    published: item.published.map(W3CTimestamp.format),
                    dateTaken: item.dateTaken.map(W3CTimestamp.format), author: item.author, tags: item.tags,
                    description: item.description, mediaURL: item.mediaURL, status: item.status, error: item.error,
                    sha256: item.sha256, original: stored?.original, thumbnail: stored?.thumbnails[primarySize],
                    thumbnails: stored?.thumbnails ?? [:])
            })
    }
}

/// RFC 3339 UTC timestamps for manifests.
enum W3CTimestamp {
    static func format(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
