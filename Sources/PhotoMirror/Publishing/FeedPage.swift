import PMCache
import PMImaging

/// One page of a feed's own gallery (`feeds/<key>/index.html`, `page-2.html`, …): a grid of
/// the items, newest first, each thumbnail opening its mirrored original in the page's viewer
/// (`ItemViewer`). Pure rendering.
struct FeedPage {
    let feed: GalleryFeed
    /// This page's items, already in display order.
    let items: ArraySlice<ItemRecord>
    let page: Int
    let pageCount: Int
    let base: ThumbnailSize

    /// From `feeds/<key>/` back to the cache root.
    static let rootPrefix = "../../"

    /// The grid's smallest tile: the gallery's thumbnail width, so larger synced sizes get larger
    /// tiles, but never so small that 40×40 thumbnails make a page of specks (they are drawn
    /// larger; the 2x and 3x scales keep them sharp).
    static func tileWidth(_ base: ThumbnailSize) -> Int { min(max(base.width, 120), 320) }

    func render() -> HTMLBuffer {
        let title = feed.displayTitle
        let pageTitle = pageCount > 1 ? "\(title) (page \(page) of \(pageCount))" : title
        return PageShell.write(title: "\(pageTitle) — photomirror", rootPrefix: Self.rootPrefix,
                               alternate: PageShell.Alternate(title: title, href: CacheLayout.jsonFeedFile),
                               capacity: 16_384 + items.count * 1_300) { html in
            html.markup("<header>\n<p class=\"crumbs\"><a href=\"")
            html.markup(Self.rootPrefix)
            html.markup(CacheLayout.galleryFile)
            html.markup("\">← All feeds</a></p>\n")
            writeFeedImage(to: &html)
            html.markup("<h1>")
            html.text(title)
            html.markup("</h1>\n<p class=\"meta\">")
            feed.counts.write(to: &html, syncedAt: nil)
            html.markup(" · <a href=\"")
            html.markup(CacheLayout.manifestFile)
            html.markup("\">manifest</a> · <a href=\"")
            html.markup(CacheLayout.jsonFeedFile)
            html.markup("\" type=\"application/feed+json\">JSON Feed</a>")
            feed.record.writeSourceAndAttribution(to: &html)
            html.markup("</header>\n<main>\n")
            writePager(to: &html)
            if items.isEmpty { html.markup("<p>This feed has no items.</p>\n") }
            html.markup("<ul class=\"grid\" style=\"--tile:")
            html.number(Self.tileWidth(base))
            html.markup("px\">\n")
            var viewers: [ItemViewer.Entry] = []
            for (offset, item) in items.enumerated() {
                let paths = item.sha256.flatMap { feed.paths[$0] }
                let visual = ItemVisual.of(item, paths: paths, base: base, prefix: Self.rootPrefix)
                let more = item.moreMedia.isEmpty ? nil
                    : MoreImages(media: item.moreMedia, paths: feed.paths, base: base, prefix: Self.rootPrefix)
                var viewer: Int?
                if case .image(_, let original?) = visual {
                    viewer = offset
                    viewers.append(ItemViewer.Entry(number: offset, title: ItemCard.displayTitle(of: item), original: original))
                }
                ItemCard(item: item, visual: visual, base: base, more: more)
                    .write(lazy: offset >= GalleryPaging.eagerImages, viewer: viewer, to: &html)
            }
            html.markup("</ul>\n")
            writePager(to: &html)
            html.markup("</main>\n")
            ItemViewer.write(viewers, to: &html)
        }
    }

    /// The feed's own image (its logo) beside the title, when the cache holds its thumbnail.
    private func writeFeedImage(to html: inout HTMLBuffer) {
        guard let stored = feed.record.imageSHA256.flatMap({ feed.paths[$0] }),
              let sources = ThumbnailSources.choose(base: base, stored: stored.thumbnails, prefix: Self.rootPrefix)
        else { return }
        sources.writeImageStart(width: base.width, height: base.height, alt: "", to: &html)
        html.markup("\" class=\"logo\">\n")
    }

    private func writePager(to html: inout HTMLBuffer) {
        guard pageCount > 1 else { return }
        html.markup("<nav class=\"pages\" aria-label=\"pages\">")
        if page > 1 { link(to: page - 1, label: "← newer", rel: "prev", in: &html) }
        for shown in GalleryPaging.shownPages(current: page, count: pageCount) {
            guard let number = shown else {
                html.markup("<span aria-hidden=\"true\">…</span>")
                continue
            }
            if number == page {
                html.markup("<span aria-current=\"page\">")
                html.number(number)
                html.markup("</span>")
            } else {
                link(to: number, label: "\(number)", rel: nil, in: &html)
            }
        }
        if page < pageCount { link(to: page + 1, label: "older →", rel: "next", in: &html) }
        html.markup("</nav>\n")
    }

    private func link(to number: Int, label: String, rel: StaticString?, in html: inout HTMLBuffer) {
        html.markup("<a href=\"")
        html.markup(GalleryPaging.fileName(page: number))
        html.markup("\"")
        if let rel {
            html.markup(" rel=\"")
            html.markup(rel)
            html.markup("\"")
        }
        html.markup(">")
        html.markup(label)
        html.markup("</a>")
    }
}
