import PMCache
import PMImaging

/// One item of a feed page: picture, title, date, author, tags and the link to the source.
struct ItemCard {
    let item: ItemRecord
    let visual: ItemVisual
    let base: ThumbnailSize
    /// The item's further images, when it has any.
    var more: MoreImages? = nil

    static func displayTitle(of item: ItemRecord) -> String {
        let title = HTML.trimmingWhitespace(item.title)
        return title.isEmpty ? item.itemID : title
    }

    func write(lazy: Bool, viewer: Int? = nil, to html: inout HTMLBuffer) {
        let title = Self.displayTitle(of: item)
        html.markup("<li class=\"item\">")
        visual.write(alt: title, base: base, lazy: lazy, viewer: viewer, to: &html)
        more?.write(to: &html)
        html.markup("<p class=\"title\">")
        html.text(title)
        html.markup("</p>")
        writeDetails(to: &html)
        if case .placeholder(_, let reason) = visual, item.status == .failed {
            html.markup("<p class=\"reason\">")
            html.text(reason)
            html.markup("</p>")
        }
        if !item.tags.isEmpty {
            html.markup("<ul class=\"tags\" aria-label=\"tags\">")
            for tag in item.tags.prefix(8) {
                html.markup("<li>")
                html.text(tag)
                html.markup("</li>")
            }
            html.markup("</ul>")
        }
        html.markup("</li>\n")
    }

    /// Date, author, source link and "original evicted", separated by middle dots.
    private func writeDetails(to html: inout HTMLBuffer) {
        var first = true
        func separate() {
            html.markup(first ? "<p class=\"details\">" : " · ")
            first = false
        }
        if let published = item.published {
            separate()
            let stamp = W3CTimestamp.format(published)
            html.markup("<time datetime=\"")
            html.markup(stamp)
            html.markup("\">")
            html.markup(String(stamp.prefix(10)))
            html.markup("</time>")
        }
        if let author = AuthorName.display(item.author) {
            separate()
            html.markup("by ")
            html.text(author)
        }
        if let source = HTML.safeExternalLink(item.link) {
            separate()
            html.markup("<a href=\"")
            html.markup(source)
            html.markup("\" rel=\"noopener noreferrer\">source</a>")
        }
        if case .image(_, nil) = visual {
            separate()
            html.markup("original evicted")
        }
        if !first { html.markup("</p>") }
    }
}

/// Authors as people read them. Flickr writes `nobody@flickr.com ("name")`: the name is the
/// part in quotes.
enum AuthorName {
    static func display(_ author: String?) -> String? {
        guard let author = author.map(HTML.trimmingWhitespace), !author.isEmpty else { return nil }
        let utf8 = author.utf8
        // `("` … `")`, the last closing pair after the first opening one.
        if let open = utf8.indices.first(where: { utf8[$0] == UInt8(ascii: "(") && utf8.index(after: $0) < utf8.endIndex
                                                    && utf8[utf8.index(after: $0)] == UInt8(ascii: "\"") }),
           let close = utf8.indices.last(where: { utf8[$0] == UInt8(ascii: "\"") && utf8.index(after: $0) < utf8.endIndex
                                                    && utf8[utf8.index(after: $0)] == UInt8(ascii: ")") }),
           utf8.index(open, offsetBy: 2) <= close {
            let name = HTML.trimmingSpaces(String(author[utf8.index(open, offsetBy: 2)..<close]))
            if !name.isEmpty { return name }
        }
        return author
    }
}
