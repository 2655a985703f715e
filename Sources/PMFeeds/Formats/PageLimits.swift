/// How the caller's `maxPages`/`maxItems` bound each kind of paging. A page-numbered API (Flickr
/// REST) lets the caller choose the page size, so `maxPages` is the natural bound; an offset-paged
/// API (Marvel) caps its page size server-side, so pages are followed to the total and the item
/// count is what stops them.
extension Paging {
    /// True when pages are an offset into a total (Marvel), false when they are numbered (Flickr REST).
    public var isOffsetPaged: Bool {
        switch self {
        case .flickr: false
        case .marvel: true
        }
    }

    /// The `maxPages` to hand `FeedPaging.nextPageURL`: the caller's for page-numbered APIs,
    /// unbounded for offset-paged ones (which `maxItems` bounds instead).
    public func pageLimit(maxPages: Int) -> Int {
        isOffsetPaged ? Int.max : maxPages
    }
}

extension ParsedFeed {
    /// At most `maxItems` items when the feed is offset-paged: its last page can overshoot the
    /// cap by up to a page. Other feeds come back whole, since their size is the publisher's or
    /// `maxPages`' choice.
    public func truncated(toItems maxItems: Int) -> ParsedFeed {
        guard let paging, paging.isOffsetPaged, items.count > maxItems else { return self }
        var feed = self
        feed.items.removeLast(items.count - max(maxItems, 0))
        return feed
    }
}
