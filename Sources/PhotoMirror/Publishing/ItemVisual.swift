import PMCache
import PMImaging

/// What the gallery shows for an item's picture: the thumbnail (linked to the mirrored original
/// when that is still in the cache), or a labelled placeholder — never a broken image.
enum ItemVisual: Equatable {
    case image(ThumbnailSources, link: String?)
    case placeholder(label: String, reason: String)

    /// Statuses whose thumbnails may be in the cache: `evicted-original` keeps them when prune
    /// drops the original (PMCache's ItemStatus).
    static let thumbnailStatuses: Set<ItemStatus> = [.ok, .evictedOriginal]

    static func of(_ item: ItemRecord, paths: StoredPaths?, base: ThumbnailSize, prefix: String) -> ItemVisual {
        switch item.status {
        case .ok, .evictedOriginal:
            guard let paths, var sources = ThumbnailSources.choose(base: base, stored: paths.thumbnails, prefix: prefix)
            else { return .placeholder(label: "evicted", reason: "the thumbnail is no longer in the cache") }
            sources.placeholder = paths.placeholder.flatMap(PlaceholderImage.dataURL(thumbHash:))
            return .image(sources, link: paths.original.map { prefix + HTML.relativeLink($0) })
        case .evicted:
            return .placeholder(label: "evicted", reason: item.error
                ?? "the image was evicted from the cache; the next sync that lists the item fetches it again")
        case .failed:
            return .placeholder(label: "failed", reason: item.error ?? "the image could not be mirrored")
        case .noImage:
            return .placeholder(label: "no image", reason: item.error ?? "the feed gives no image for this item")
        case .skipped:
            return .placeholder(label: "skipped", reason: item.error ?? "the image was left out (--min-bytes or --min-pixels)")
        }
    }

    /// The `<img>` or placeholder element; `alt` is the item's title, plain text. With `viewer`,
    /// the thumbnail opens that `ItemViewer` on the page (whose close link comes back to it by
    /// its id) instead of the bare original.
    func write(alt: String, base: ThumbnailSize, lazy: Bool, viewer: Int? = nil, to html: inout HTMLBuffer) {
        switch self {
        case .image(let sources, let link):
            if let viewer, link != nil {
                html.markup("<a class=\"thumb\" id=\"t")
                html.number(viewer)
                html.markup("\" href=\"#v")
                html.number(viewer)
                html.markup("\">")
            } else if let link {
                html.markup("<a class=\"thumb\" href=\"")
                html.markup(link)
                html.markup("\">")
            }
            sources.writeImageStart(width: base.width, height: base.height, alt: alt, to: &html)
            html.markup(lazy ? "\" loading=\"lazy\" decoding=\"async\">" : "\">")
            if link != nil { html.markup("</a>") }
        case .placeholder(let label, let reason):
            html.markup("<div class=\"missing\" role=\"img\" aria-label=\"")
            html.text(label)
            html.markup(": ")
            html.text(alt)
            html.markup("\" title=\"")
            html.text(reason)
            html.markup("\" style=\"width:")
            html.number(base.width)
            html.markup("px;height:")
            html.number(base.height)
            html.markup("px\">")
            html.text(label)
            html.markup("</div>")
        }
    }
}
