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
        case .rss: "RSS 0.90–2.0 and RSS 1.0/RDF (Media RSS, enclosures, itunes:image, <img> in item HTML)"
        case .atom: "Atom 0.3/1.0"
        case .jsonFeed: "JSON Feed 1.0/1.1"
        }
    }
}

/// One image an item names, and where in the item it was found.
public struct FeedMedia: Sendable, Equatable, Codable, Hashable {
    /// Where a feed put the image; the manifest's `media[].source`.
    public enum Source: String, Sendable, Codable, CaseIterable {
        /// An API's own image field (Flickr `media.m`/`url_*`, Marvel `thumbnail`).
        case api
        case mediaContent = "media:content"
        case mediaThumbnail = "media:thumbnail"
        case enclosure
        case itunesImage = "itunes:image"
        case googleplayImage = "googleplay:image"
        /// An `<img>` in the item's HTML (RSS `description`/`content:encoded`, Atom content, JSON Feed `content_html`).
        case html
        /// JSON Feed `attachments[]` with an `image/*` type.
        case attachment
        /// JSON Feed `image`.
        case image
        /// JSON Feed `banner_image`.
        case bannerImage = "banner_image"
    }

    /// Absolute (resolved against the item's base) unless the feed gave something unresolvable.
    public var url: String
    public var source: Source

    public init(url: String, source: Source) {
        self.url = url
        self.source = source
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
    /// The images to mirror, in document order, without duplicates; the first is the item's own
    /// (shown in the gallery, `media_url` in the manifest). Empty means the feed gives none, see `noImageReason`.
    public var media: [FeedMedia]
    /// The feed's own "no image" answer (Marvel placeholder, RSS item without image).
    public var noImageReason: String?

    /// The first image's URL: what single-image clients (manifest `media_url`) know.
    public var mediaURL: String? { media.first?.url }

    /// `mediaURL` is a one-image shorthand for `media` (source `.api`); with both, `media` wins.
    public init(id: String, title: String, link: String? = nil, published: Date? = nil, dateTaken: Date? = nil,
                author: String? = nil, tags: [String] = [], description: String? = nil,
                mediaURL: String? = nil, media: [FeedMedia] = [], noImageReason: String? = nil) {
        self.id = id
        self.title = title
        self.link = link
        self.published = published
        self.dateTaken = dateTaken
        self.author = author
        self.tags = tags
        self.description = description
        self.media = media.isEmpty ? (mediaURL.map { [FeedMedia(url: $0, source: .api)] } ?? []) : media
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
    /// The feed's own image (RSS `<image>`, Atom `logo`/`icon`, JSON Feed `icon`), for the gallery's feed header.
    public var image: String?
    /// What had to be repaired to read the document (recovered XML, a guessed charset): the feed
    /// still succeeded; the manifest lists these and the sync prints them.
    public var warnings: [String]
    /// How long the feed asks readers to wait before fetching it again, in seconds (RSS `<ttl>`,
    /// given in minutes); nil when it says nothing.
    public var timeToLive: Double?

    public init(kind: FeedKind, title: String, link: String? = nil, attribution: String? = nil,
                items: [FeedItem], invalid: [InvalidItem] = [], paging: Paging? = nil,
                image: String? = nil, warnings: [String] = [], timeToLive: Double? = nil) {
        self.kind = kind
        self.title = title
        self.link = link
        self.attribution = attribution
        self.items = items
        self.invalid = invalid
        self.paging = paging
        self.image = image
        self.warnings = warnings
        self.timeToLive = timeToLive
    }
}

/// A whole-feed failure (unparseable bytes, an API error envelope); single bad items are `InvalidItem`s instead.
public struct FeedError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}
