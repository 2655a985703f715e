import PMCache

/// How a feed's items are split into pages: newest first, a few hundred per page, so a feed of
/// 10 000 items is 50 light pages rather than one that takes seconds to lay out.
enum GalleryPaging {
    static let pageSize = 200
    /// Items above the fold load at once; the rest use `loading="lazy"`.
    static let eagerImages = 24

    /// Newest first by publication date; undated items after dated ones, in feed order.
    static func newestFirst(_ items: some Sequence<ItemRecord>) -> [ItemRecord] {
        items.sorted { left, right in
            switch (left.published, right.published) {
            case let (l?, r?) where l != r: l > r
            case (_?, nil): true
            case (nil, _?): false
            default: left.position < right.position
            }
        }
    }

    static func pageCount(items: Int) -> Int { max(1, (items + pageSize - 1) / pageSize) }

    /// Page 1 is the folder's `index.html`; later pages are `page-2.html`, `page-3.html`, ….
    static func fileName(page: Int) -> String { page == 1 ? "index.html" : "page-\(page).html" }

    /// `feeds/<key>/index.html` or `feeds/<key>/page-N.html`, relative to the cache root.
    static func path(feedKey: String, page: Int) -> String {
        "\(CacheLayout.feedsFolder)/\(feedKey)/\(fileName(page: page))"
    }

    /// The page numbers a pager shows: first, last and a window around the current one;
    /// nil marks a gap.
    static func shownPages(current: Int, count: Int, window: Int = 2) -> [Int?] {
        var shown: [Int?] = []
        for page in 1...count where page == 1 || page == count || abs(page - current) <= window {
            if let last = shown.last ?? nil, page > last + 1 { shown.append(nil) }
            shown.append(page)
        }
        return shown
    }
}
