import Foundation
import PMCache
import PMFeeds
import PMLoading

/// A feed as the index remembers it from its last sync: the validators to ask the server with
/// (every sync, `LoadingOptions.revalidateFeeds`), and its row to publish again when it answers
/// 304 Not Modified. Its items stay in the index: the sync reads them from there.
struct StoredFeed: Sendable {
    var kind: FeedKind
    var conditionalHeaders: [String: String]
    var fetched: FetchedFeed

    /// Nil when there is nothing to ask conditionally: an unknown feed, or a server that gave
    /// no validators (it gets an unconditional request).
    static func load(url: String, index: PhotoIndex) async -> StoredFeed? {
        let key = CacheLayout.feedKey(url: url)
        guard let record = try? await index.feed(key: key), let kind = FeedKind(rawValue: record.kind) else { return nil }
        let headers = HTTPRequest.conditionalHeaders(etag: record.etag, lastModified: record.lastModified)
        guard !headers.isEmpty else { return nil }
        return StoredFeed(kind: kind, conditionalHeaders: headers, fetched: FetchedFeed(
            parsed: parsedFeed(record: record, kind: kind, items: []),
            etag: record.etag, lastModified: record.lastModified))
    }

    /// The stored feed as a 304 gives it back (without its items, which the index holds). The 304 may carry fresher validators; the
    /// stored ones stand where it carries none.
    func notModified(etag: String?, lastModified: String?) -> FetchedFeed {
        var feed = fetched
        feed.notModified = true
        feed.etag = etag ?? fetched.etag
        feed.lastModified = lastModified ?? fetched.lastModified
        return feed
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
