import Foundation
import PMCache
import PMImaging

/// One item of a feed page: picture, title, date, author, tags and the link to the source.
struct ItemCard {
    let item: ItemRecord
    let visual: ItemVisual
    let base: ThumbnailSize

    var displayTitle: String {
        let title = item.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? item.itemID : title
    }

    func render(lazy: Bool) -> String {
        var html = "<li class=\"item\">"
        html += visual.markup(alt: displayTitle, base: base, lazy: lazy)
        html += "<p class=\"title\">\(HTML.escape(displayTitle))</p>"
        var details: [String] = []
        if let published = item.published {
            let stamp = W3CTimestamp.format(published)
            details.append("<time datetime=\"\(stamp)\">\(HTML.escape(String(stamp.prefix(10))))</time>")
        }
        if let author = AuthorName.display(item.author) { details.append("by \(HTML.escape(author))") }
        if let source = HTML.safeExternalLink(item.link) {
            details.append("<a href=\"\(source)\" rel=\"noopener noreferrer\">source</a>")
        }
        if case .image(_, nil) = visual { details.append("original evicted") }
        if !details.isEmpty { html += "<p class=\"details\">\(details.joined(separator: " · "))</p>" }
        if case .placeholder(_, let reason) = visual, item.status == "failed" {
            html += "<p class=\"reason\">\(HTML.escape(reason))</p>"
        }
        if !item.tags.isEmpty {
            html += "<ul class=\"tags\" aria-label=\"tags\">"
            html += item.tags.prefix(8).map { "<li>\(HTML.escape($0))</li>" }.joined()
            html += "</ul>"
        }
        return html + "</li>\n"
    }
}

/// Authors as people read them. Flickr writes `nobody@flickr.com ("name")`: the name is the
/// part in quotes.
enum AuthorName {
    static func display(_ author: String?) -> String? {
        guard let author = author?.trimmingCharacters(in: .whitespacesAndNewlines), !author.isEmpty else { return nil }
        if let open = author.range(of: "(\""), let close = author.range(of: "\")", options: .backwards),
           open.upperBound <= close.lowerBound {
            let name = author[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return author
    }
}
