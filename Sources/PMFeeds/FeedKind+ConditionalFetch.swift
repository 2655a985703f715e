/// How a feed is asked whether it changed since the last sync, with the validators (ETag,
/// Last-Modified) its first request answered with.
public enum ConditionalFetch: Sendable, Equatable {
    /// One document: a 304 for it says the whole feed is unchanged.
    case document
    /// A paged API: only the first page carries the validators (they are page 1's). A 304 for
    /// it is taken for the whole feed, so an unchanged feed costs one request with no body
    /// instead of every page (issue 13); a 200 is followed page by page as usual. The price:
    /// a change confined to a later page waits until page 1 changes too. Flickr lists newest
    /// first, so an upload changes page 1.
    case firstPage

    /// Whether the request for page `pageIndex` (0 for the feed's URL) carries the validators.
    public func isConditional(pageIndex: Int) -> Bool {
        switch self {
        case .document, .firstPage: pageIndex == 0
        }
    }
}

extension FeedKind {
    /// Spelled out per kind so that a new format has to decide.
    public var conditionalFetch: ConditionalFetch {
        switch self {
        case .flickrSearch, .marvel: .firstPage
        case .flickrPublic, .rss, .atom, .jsonFeed: .document
        }
    }
}
