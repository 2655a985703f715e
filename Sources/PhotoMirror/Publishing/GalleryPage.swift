import Foundation
import PMCache
import PMImaging

/// The root `index.html`: every feed with its items' thumbnails. Pure rendering over index rows.
/// Relative links only, so the page works from `file://` and any static server; no script at
/// all, and a Content-Security-Policy that would refuse one a feed smuggled in.
struct GalleryPage {
    struct Section {
        var feed: FeedRecord
        var items: [ItemRecord]
        var paths: [String: StoredPaths]
    }

    let sections: [Section]
    let primarySize: ThumbnailSize

    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    func render() -> String {
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
        <meta name="referrer" content="no-referrer">
        <title>photomirror gallery</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        <h1>photomirror gallery</h1>

        """
        if sections.isEmpty { html += "<p>No feeds mirrored yet.</p>\n" }
        for section in sections { html += render(section) }
        html += "</body>\n</html>\n"
        return html
    }

    private func render(_ section: Section) -> String {
        let feed = section.feed
        let ok = section.items.filter { $0.status == "ok" }.count
        var html = "<section>\n<h2>\(HTML.escape(feed.title.isEmpty ? feed.url : feed.title))</h2>\n"
        html += "<p class=\"meta\">\(ok) of \(section.items.count) items mirrored · synced "
        html += "\(HTML.escape(W3CTimestamp.format(feed.lastSync))) · "
        html += "<a href=\"\(HTML.relativeLink(CacheLayout.manifestPath(feedKey: feed.key)))\">manifest</a>"
        if let source = HTML.safeExternalLink(feed.link) { html += " · <a href=\"\(source)\">source</a>" }
        html += "</p>\n"
        if let attribution = feed.attribution { html += "<p class=\"attribution\">\(HTML.escape(attribution))</p>\n" }
        html += "<ul class=\"grid\">\n"
        for item in section.items { html += render(item, paths: item.sha256.flatMap { section.paths[$0] }) }
        html += "</ul>\n</section>\n"
        return html
    }

    private func render(_ item: ItemRecord, paths: StoredPaths?) -> String {
        let title = HTML.escape(item.title.trimmingCharacters(in: .whitespaces).isEmpty ? item.itemID : item.title)
        var html = "<li>"
        if let thumbnail = paths?.thumbnails[primarySize.description] {
            let image = "<img src=\"\(HTML.relativeLink(thumbnail))\" width=\"\(primarySize.width)\" "
                + "height=\"\(primarySize.height)\" alt=\"\(title)\" loading=\"lazy\">"
            if let original = paths?.original {
                html += "<a href=\"\(HTML.relativeLink(original))\">\(image)</a>"
            } else {
                html += image
            }
        } else {
            let reason = HTML.escape(item.error ?? item.status)
            html += "<span class=\"missing\" style=\"width:\(primarySize.width)px;height:\(primarySize.height)px\" "
                + "title=\"\(reason)\">\(HTML.escape(item.status))</span>"
        }
        html += "<span class=\"title\">"
        if let link = HTML.safeExternalLink(item.link) {
            html += "<a href=\"\(link)\" rel=\"noopener noreferrer\">\(title)</a>"
        } else {
            html += title
        }
        html += "</span>"
        if let published = item.published {
            html += "<time datetime=\"\(W3CTimestamp.format(published))\">"
            html += "\(HTML.escape(String(W3CTimestamp.format(published).prefix(10))))</time>"
        }
        if !item.tags.isEmpty {
            html += "<span class=\"tags\">\(item.tags.prefix(8).map(HTML.escape).joined(separator: " "))</span>"
        }
        return html + "</li>\n"
    }

    static let style = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1rem;color:#222;background:#fafafa}\
    h2{margin:1.5rem 0 .25rem}.meta,.attribution{color:#666;margin:.25rem 0}\
    .grid{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.75rem}\
    .grid li{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.5rem;overflow:hidden}\
    .grid img,.missing{display:block;image-rendering:auto}\
    .missing{background:#eee;color:#a00;font-size:10px;display:flex;align-items:center;justify-content:center}\
    .title{display:block;font-weight:600;overflow-wrap:anywhere}.tags,time{display:block;color:#777;font-size:12px}\
    a:focus{outline:2px solid #06c}
    """
}
