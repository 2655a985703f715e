import Foundation
import PMCache
import PMFeeds

/// A feed as the index remembers it from its last sync: the validators to ask the server with
/// (`sync --revalidate`), and the items to publish again when it answers 304 Not Modified.
struct StoredFeed: Sendable {
    var conditionalHeaders: [String: String]
    var fetched: FetchedFeed

    /// Nil when there is nothing to ask conditionally: an unknown feed, a server that gave no
    /// validators, or a kind whose 304 would not cover the whole feed (`allowsConditionalFetch`).
    static func load(url: String, index: PhotoIndex) async -> StoredFeed? {
        let key = CacheLayout.feedKey(url: url)
        guard let record = try? await index.feed(key: key), let kind = FeedKind(rawValue: record.kind),
              kind.allowsConditionalFetch,
              let items = try? await index.items(feedKey: key) else { return nil }
        var headers: [String: String] = [:]
        if let etag = record.etag { headers["If-None-Match"] = etag }
        if let lastModified = record.lastModified { headers["If-Modified-Since"] = lastModified }
        guard !headers.isEmpty else { return nil }
        return StoredFeed(conditionalHeaders: headers, fetched: FetchedFeed(
            parsed: parsedFeed(record: record, kind: kind, items: items),
            etag: record.etag, lastModified: record.lastModified))
    }

    /// The feed the stored rows came from. Pure. Items the feed listed without an image keep
    /// their reason; entries it listed unreadably come back as invalid entries with theirs.
    static func parsedFeed(record: FeedRecord, kind: FeedKind, items: [ItemRecord]) -> ParsedFeed {
        var feed = ParsedFeed(kind: kind, title: record.title, link: record.link, attribution: record.attribution, items: [],
                              image: record.imageURL, warnings: record.warnings)
        for item in items {
            if item.mediaURL == nil, item.status == .failed {
                feed.invalid.append(InvalidItem(index: item.position, id: item.itemID, reason: item.error ?? "invalid item"))
                continue
            }
            feed.items.append(FeedItem(
                id: item.itemID, title: item.title, link: item.link,
                published: item.published.map(Date.init(timeIntervalSince1970:)),
                dateTaken: item.dateTaken.map(Date.init(timeIntervalSince1970:)),
                author: item.author, tags: item.tags, description: item.description,
                media: item.allMedia.map { FeedMedia(url: $0.url, source: FeedMedia.Source(rawValue: $0.source) ?? .api) },
                noImageReason: item.status == .noImage ? item.error : nil))
        }
        return feed
    }
}
