import PMCache
import PMImaging

/// One page of a feed's own gallery (`feeds/<key>/index.html`, `page-2.html`, …): a grid of
/// the items, newest first, each thumbnail linking to its mirrored original. Pure rendering.
struct FeedPage {
    let feed: GalleryFeed
    /// This page's items, already in display order.
    let items: ArraySlice<ItemRecord>
    let page: Int
    let pageCount: Int
    let base: ThumbnailSize

    /// From `feeds/<key>/` back to the cache root.
    static let rootPrefix = "../../"

    func render() -> String {
        let title = feed.displayTitle
        var body = "<header>\n<p class=\"crumbs\"><a href=\"\(Self.rootPrefix)\(CacheLayout.galleryFile)\">← All feeds</a></p>\n"
        body += "<h1>\(HTML.escape(title))</h1>\n"
        body += "<p class=\"meta\">\(feed.summary)"
        body += " · <a href=\"\(CacheLayout.manifestFile)\">manifest</a>"
        if let source = HTML.safeExternalLink(feed.record.link) {
            body += " · <a href=\"\(source)\" rel=\"noopener noreferrer\">source</a>"
        }
        body += "</p>\n"
        if let attribution = feed.record.attribution {
            body += "<p class=\"attribution\">\(HTML.escape(attribution))</p>\n"
        }
        body += "</header>\n<main>\n"
        body += pager()
        if items.isEmpty { body += "<p>This feed has no items.</p>\n" }
        body += "<ul class=\"grid\">\n"
        for (offset, item) in items.enumerated() {
            let paths = item.sha256.flatMap { feed.paths[$0] }
            let visual = ItemVisual.of(item, paths: paths, base: base, prefix: Self.rootPrefix)
            body += ItemCard(item: item, visual: visual, base: base).render(lazy: offset >= GalleryPaging.eagerImages)
        }
        body += "</ul>\n" + pager() + "</main>\n"
        let pageTitle = pageCount > 1 ? "\(title) (page \(page) of \(pageCount))" : title
        return PageShell.document(title: "\(pageTitle) — photomirror", body: body, rootPrefix: Self.rootPrefix)
    }

    private func pager() -> String {
        guard pageCount > 1 else { return "" }
        var html = "<nav class=\"pages\" aria-label=\"pages\">"
        if page > 1 { html += "<a href=\"\(GalleryPaging.fileName(page: page - 1))\" rel=\"prev\">← newer</a>" }
        for shown in GalleryPaging.shownPages(current: page, count: pageCount) {
            guard let number = shown else {
                html += "<span aria-hidden=\"true\">…</span>"
                continue
            }
            html += number == page
                ? "<span aria-current=\"page\">\(number)</span>"
                : "<a href=\"\(GalleryPaging.fileName(page: number))\">\(number)</a>"
        }
        if page < pageCount { html += "<a href=\"\(GalleryPaging.fileName(page: page + 1))\" rel=\"next\">older →</a>" }
        return html + "</nav>\n"
    }
}
