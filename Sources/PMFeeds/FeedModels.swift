import Foundation

/// The feed formats this module understands, detected from the bytes (never from the URL).
public enum FeedKind: String, Sendable, Codable, CaseIterable {
    case flickrPublic, flickrSearch, marvel, rss, atom, jsonFeed

    /// Human wording used in error messages that list what we accept.
    public var displayName: String {
        switch self {
        case .flickrPublic: "Flickr public feed JSON/JSONP (photos_public.gne)"
        case .flickrSearch: "Flickr REST photos JSON (flickr.photos.search, getRecent, …)"
        case .marvel: "Marvel Comics API JSON (/v1/public/…)"
        case .rss: "RSS 2.0 (with Media RSS or image enclosures)"
        case .atom: "Atom 1.0"
        case .jsonFeed: "JSON Feed 1.0/1.1"
        }
    }
}

/// One photo (or would-be photo) a feed announced.
public struct FeedItem: Sendable, Equatable, Codable {
    /// Stable across syncs and unique within one parsed feed; not escaped for file systems.
    public var id: String
    public var title: String
    public var link: String?
    public var published: Date?
    public var dateTaken: Date?
    public var author: String?
    public var tags: [String]
    /// Untrusted text, often HTML straight from the feed: never render it unescaped.
    public var description: String?
    /// The image to mirror; nil means the feed itself said there is none, see `noImageReason`.
    public var mediaURL: String?
    /// The feed's own "no image" answer (Marvel placeholder, RSS item without image).
    public var noImageReason: String?

    public init(id: String, title: String, link: String? = nil, published: Date? = nil, dateTaken: Date? = nil,
                author: String? = nil, tags: [String] = [], description: String? = nil,
                mediaURL: String? = nil, noImageReason: String? = nil) {
        self.id = id
        self.title = title
        self.link = link
        self.published = published
        self.dateTaken = dateTaken
        self.author = author
        self.tags = tags
        self.description = description
        self.mediaURL = mediaURL
        self.noImageReason = noImageReason
    }
}

/// An entry the feed listed but that could not be turned into a `FeedItem`; the rest of the feed is unaffected.
public struct InvalidItem: Sendable, Equatable, Codable {
    /// 0-based position in the feed's item list (the same number the `reason` text uses).
    public var index: Int
    /// The item's natural id when it could still be read, to tie the failure to a photo.
    public var id: String?
    public var reason: String

    public init(index: Int, id: String?, reason: String) {
        self.index = index
        self.id = id
        self.reason = reason
    }
}

/// Where a paged API response sits in its result set.
public enum Paging: Sendable, Equatable {
    case flickr(page: Int, pages: Int, perPage: Int, total: Int?)
    case marvel(offset: Int, limit: Int, total: Int, count: Int)
}

public struct ParsedFeed: Sendable {
    public var kind: FeedKind
    public var title: String
    public var link: String?
    /// Text the source requires us to show (Marvel's `attributionText`), kept verbatim.
    public var attribution: String?
    public var items: [FeedItem]
    public var invalid: [InvalidItem]
    public var paging: Paging?

    public init(kind: FeedKind, title: String, link: String? = nil, attribution: String? = nil,
                items: [FeedItem], invalid: [InvalidItem] = [], paging: Paging? = nil) {
        self.kind = kind
        self.title = title
        self.link = link
        self.attribution = attribution
        self.items = items
        self.invalid = invalid
        self.paging = paging
    }
}

/// A whole-feed failure (unparseable bytes, an API error envelope); single bad items are `InvalidItem`s instead.
public struct FeedError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}
