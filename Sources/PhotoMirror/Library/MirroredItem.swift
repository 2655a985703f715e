import Foundation
import PMCache

/// One item of a synced feed, as its manifest shows it: what the feed said and the image the
/// cache holds for it.
public struct MirroredItem: Sendable, Equatable {
    /// The item's identity in its feed (its guid, id or link).
    public let id: String
    public let title: String
    public let link: String?
    public let published: Date?
    /// `ok`, `failed`, `pending`, `no-image`, `evicted` or `evicted-original` (cache-layout.md).
    public let status: String
    /// Why the item's image failed, when it did.
    public let error: String?
    /// The URL of the item's first image, as the feed named it.
    public let imageURL: String?
    /// The files of that image, when the cache holds any.
    public let image: CachedImage?
}

extension MirrorCache {
    /// The items of a synced feed (its URL as it was synced), in the feed's order; empty when
    /// the cache has never synced it.
    public func items(inFeed feedURL: String) async throws(CacheCommandError) -> [MirroredItem] {
        let folder = folder
        return try await withIndex { index throws(IndexError) in
            let feed = try await index.feedItems(feedKey: CacheLayout.feedKey(url: feedURL))
            return feed.items.map { item in
                let image = item.sha256.flatMap { sha256 in
                    feed.files[sha256].map { CachedImage(sha256, files: $0, format: nil, in: folder) }
                }
                return MirroredItem(id: item.itemID, title: item.title, link: item.link,
                                    published: item.published.map { Date(timeIntervalSince1970: $0) },
                                    status: item.status.rawValue, error: item.error, imageURL: item.mediaURL, image: image)
            }
        }
    }
}
