import PMCache
import PMImaging

/// The images of an item after its first, on its card: a strip of the thumbnails the cache
/// holds (each linked to its original while that is kept) and a count of the rest, so a card
/// of twenty images stays a card. Only stored files are linked: never a broken image.
struct MoreImages {
    /// Thumbnails shown beside the count.
    static let shown = 4

    let media: [MediaRecord]
    let paths: [String: StoredPaths]
    let base: ThumbnailSize
    let prefix: String

    func write(to html: inout HTMLBuffer) {
        guard !media.isEmpty else { return }
        html.markup("<p class=\"more\">")
        var strip = 0
        for image in media where strip < Self.shown {
            guard ItemVisual.thumbnailStatuses.contains(image.status), let stored = image.sha256.flatMap({ paths[$0] }),
                  let sources = ThumbnailSources.choose(base: base, stored: stored.thumbnails, prefix: prefix)
            else { continue }
            strip += 1
            let link = stored.original.map { prefix + HTML.relativeLink($0) }
            if let link {
                html.markup("<a href=\"")
                html.markup(link)
                html.markup("\">")
            }
            sources.writeImageStart(width: max(1, base.width / 2), height: max(1, base.height / 2), alt: "", to: &html)
            html.markup("\" loading=\"lazy\">")
            if link != nil { html.markup("</a>") }
        }
        html.markup("<span>+")
        html.number(media.count)
        html.markup(media.count == 1 ? " image</span></p>" : " images</span></p>")
    }
}
