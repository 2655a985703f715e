import Foundation
import PMSupport

/// The frame every gallery page shares: head, Content-Security-Policy and style.
enum PageShell {
    /// Nothing may load but images from the cache itself (default-src 'none'). `file:` is
    /// listed beside 'self' because browsers disagree on whether 'self' covers file:// pages
    /// (Chromium does, Firefox's unique file origins may not), and an http page can never
    /// load a file: image anyway. `data:` is for the placeholders inlined in the page
    /// (`PlaceholderImage`), which make no request. Styles are inline, so the pages need no other file.
    /// The one script, the viewer's keys, is allowed by its SHA-256 and no other can run.
    static let contentSecurityPolicy = "default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; "
        + "script-src 'sha256-\(scriptHash)'; base-uri 'none'; form-action 'none'"

    private static var scriptHash: String {
        let hex = Array(Digest.sha256Hex(Array(ItemViewer.keys.utf8)).utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        return Data(bytes).base64EncodedString()
    }

    /// The gallery's icon, at the cache root. Without one, every browser asks the server for a
    /// /favicon.ico the cache doesn't have, and logs the 404 as an error.
    static let iconFile = "favicon.svg"
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/>\
        <rect x="3" y="5" width="10" height="7" rx="1.5" fill="#fff"/><circle cx="8" cy="8.5" r="2" fill="#0b57d0"/></svg>

        """

    /// A feed document the page offers to feed readers (autodiscovery): a `<link rel="alternate">`
    /// is never fetched by the browser, so the policy above needs no source for it.
    struct Alternate {
        var title: String
        /// Relative to the page.
        var href: String
        var type: StaticString = "application/feed+json"
    }

    /// Writes a whole page: the shared head, then `body`. `rootPrefix` leads from the page's
    /// folder to the cache root ("" or "../../").
    static func write(title: String, rootPrefix: String, alternate: Alternate? = nil, capacity: Int = 16_384,
                      body: (inout HTMLBuffer) -> Void) -> HTMLBuffer {
        var page = HTMLBuffer(capacity: capacity)
        page.markup(head)
        page.markup("<link rel=\"icon\" href=\"")
        page.markup(rootPrefix)
        page.markup(iconFile)
        page.markup("\" type=\"image/svg+xml\">\n")
        if let alternate {
            page.markup("<link rel=\"alternate\" type=\"")
            page.markup(alternate.type)
            page.markup("\" title=\"")
            page.text(alternate.title)
            page.markup("\" href=\"")
            page.markup(HTML.relativeLink(alternate.href))
            page.markup("\">\n")
        }
        page.markup("<title>")
        page.text(title)
        page.markup("</title>\n<style>")
        page.markup(GalleryStyle.css)
        page.markup("</style>\n</head>\n<body>\n")
        body(&page)
        page.markup("</body>\n</html>\n")
        return page
    }

    private static let head = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="referrer" content="no-referrer">

        """
}
