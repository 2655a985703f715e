import PMCache
import PMImaging

/// The root `index.html`: every feed with its counts, last sync and a strip of its newest
/// thumbnails, each leading to the feed's own pages. Pure rendering over index rows.
struct GalleryIndexPage {
    let feeds: [GalleryFeed]
    let base: ThumbnailSize

    static let stripLength = 8

    func render() -> String {
        var body = "<header><h1>photomirror gallery</h1>\n"
        body += "<p class=\"meta\">\(feeds.count) feed\(feeds.count == 1 ? "" : "s") mirrored for offline viewing</p></header>\n<main>\n"
        if feeds.isEmpty { body += "<p>No feeds mirrored yet.</p>\n" }
        body += "<ul class=\"feeds\">\n"
        for feed in feeds { body += render(feed) }
        body += "</ul>\n</main>\n"
        return PageShell.document(title: "photomirror gallery", body: body, rootPrefix: "")
    }

    private func render(_ feed: GalleryFeed) -> String {
        let pageLink = HTML.relativeLink(GalleryPaging.path(feedKey: feed.record.key, page: 1))
        var html = "<li class=\"feed\">\n<h2><a href=\"\(pageLink)\">\(HTML.escape(feed.displayTitle))</a></h2>\n"
        html += "<p class=\"meta\">\(feed.summary)"
        if let source = HTML.safeExternalLink(feed.record.link) {
            html += " · <a href=\"\(source)\" rel=\"noopener noreferrer\">source</a>"
        }
        html += "</p>\n"
        if let attribution = feed.record.attribution {
            html += "<p class=\"attribution\">\(HTML.escape(attribution))</p>\n"
        }
        let strip = strip(of: feed)
        if !strip.isEmpty {
            html += "<ul class=\"strip\" aria-label=\"newest photos\">"
            for (item, sources) in strip {
                let image = ItemVisual.image(sources, link: pageLink)
                html += "<li>" + image.markup(alt: ItemCard(item: item, visual: image, base: base).displayTitle,
                                              base: base, lazy: false) + "</li>"
            }
            html += "</ul>\n"
        }
        return html + "</li>\n"
    }

    /// The newest items that have a thumbnail, up to `stripLength`.
    private func strip(of feed: GalleryFeed) -> [(ItemRecord, ThumbnailSources)] {
        var strip: [(ItemRecord, ThumbnailSources)] = []
        for item in GalleryPaging.newestFirst(feed.items) where ItemVisual.thumbnailStatuses.contains(item.status) {
            guard let paths = item.sha256.flatMap({ feed.paths[$0] }),
                  let sources = ThumbnailSources.choose(base: base, stored: paths.thumbnails, prefix: "")
            else { continue }
            strip.append((item, sources))
            if strip.count == Self.stripLength { break }
        }
        return strip
    }
}
