import PMCache
import PMImaging

/// What the root page shows of one feed: its row, its counts and the newest thumbnails. Small,
/// so the root page can list every feed without holding every feed's items.
struct GalleryCard {
    let record: FeedRecord
    let counts: FeedCounts
    let strip: [(title: String, sources: ThumbnailSources)]

    static let stripLength = 8

    init(_ feed: GalleryFeed, base: ThumbnailSize) {
        var strip = Strip(base: base)
        for item in GalleryPaging.newestFirst(feed.items) {
            guard strip.add(item, paths: feed.paths) else { break }
        }
        self.init(record: feed.record, counts: feed.counts, strip: strip)
    }

    init(record: FeedRecord, counts: FeedCounts, strip: Strip) {
        self.record = record
        self.counts = counts
        self.strip = strip.images
    }

    /// The newest thumbnails of a feed, gathered from its items newest first (a page at a time).
    struct Strip {
        let base: ThumbnailSize
        private(set) var images: [(title: String, sources: ThumbnailSources)] = []

        init(base: ThumbnailSize) {
            self.base = base
        }

        var isFull: Bool { images.count == GalleryCard.stripLength }

        /// Takes the item's thumbnail when it has one to show; false once the strip is full.
        mutating func add(_ item: ItemRecord, paths: [String: StoredPaths]) -> Bool {
            guard !isFull else { return false }
            guard ItemVisual.thumbnailStatuses.contains(item.status), let stored = item.sha256.flatMap({ paths[$0] }),
                  let sources = ThumbnailSources.choose(base: base, stored: stored.thumbnails, prefix: "")
            else { return true }
            images.append((ItemCard.displayTitle(of: item), sources))
            return !isFull
        }
    }
}

/// The root `index.html`: every feed with its counts, last sync and a strip of its newest
/// thumbnails, each leading to the feed's own pages. Pure rendering, from the cards' fragments
/// (`GalleryCardFile`), most recently synced first.
struct GalleryIndexPage {
    let cards: [GalleryCardFile]
    /// The gallery_title setting.
    var title: String? = nil

    /// The setting, else the feeds' own titles (the two most recently synced), else a name.
    static func heading(title: String?, ordered: [GalleryCardFile]) -> String {
        if let title = title.map(HTML.trimmingWhitespace), !title.isEmpty { return title }
        let titles = ordered.compactMap(\.title).map(HTML.trimmingWhitespace).filter { !$0.isEmpty }
        switch titles.count {
        case 0: return "photomirror gallery"
        case 1: return titles[0]
        case 2: return "\(titles[0]) and \(titles[1])"
        default: return "\(titles[0]), \(titles[1]) and \(titles.count - 2) more"
        }
    }

    func render() -> HTMLBuffer {
        let ordered = cards.sorted { $0.lastSync != $1.lastSync ? $0.lastSync > $1.lastSync : $0.key < $1.key }
        let heading = Self.heading(title: title, ordered: ordered)
        return PageShell.write(title: heading, rootPrefix: "") { page in
            page.markup("<header><h1>")
            page.text(heading)
            page.markup("</h1>\n<p class=\"meta\">")
            page.number(cards.count)
            page.markup(cards.count == 1 ? " feed" : " feeds")
            page.markup(" mirrored for offline viewing</p></header>\n<main>\n")
            if cards.isEmpty { page.markup("<p>No feeds mirrored yet.</p>\n") }
            page.markup("<ul class=\"feeds\">\n")
            // Rendered by this binary from the index (`fragment`), or by another writer sharing the storage.
            for card in ordered { page.markup(card.html) }
            page.markup("</ul>\n</main>\n")
        }
    }

    /// A feed's `<li>` on the root page.
    static func fragment(_ card: GalleryCard, base: ThumbnailSize) -> [UInt8] {
        var page = HTMLBuffer(capacity: 4096)
        write(card, base: base, to: &page)
        return page.bytes
    }

    private static func write(_ card: GalleryCard, base: ThumbnailSize, to page: inout HTMLBuffer) {
        let pageLink = HTML.relativeLink(GalleryPaging.path(feedKey: card.record.key, page: 1))
        page.markup("<li class=\"feed\">\n<h2><a href=\"")
        page.markup(pageLink)
        page.markup("\">")
        page.text(card.record.displayTitle)
        page.markup("</a></h2>\n<p class=\"meta\">")
        card.counts.write(to: &page, syncedAt: card.record.lastSync)
        card.record.writeSourceAndAttribution(to: &page)
        if !card.strip.isEmpty {
            page.markup("<ul class=\"strip\" aria-label=\"newest photos\">")
            for (title, sources) in card.strip {
                page.markup("<li>")
                ItemVisual.image(sources, link: pageLink).write(alt: title, base: base, lazy: false, to: &page)
                page.markup("</li>")
            }
            page.markup("</ul>\n")
        }
        page.markup("</li>\n")
    }
}
