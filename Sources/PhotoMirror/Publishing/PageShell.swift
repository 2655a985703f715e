/// The frame every gallery page shares: head, Content-Security-Policy and style.
enum PageShell {
    /// No script may run (default-src 'none'); images only from the cache itself. `file:` is
    /// listed beside 'self' because browsers disagree on whether 'self' covers file:// pages
    /// (Chromium does, Firefox's unique file origins may not), and an http page can never
    /// load a file: image anyway. Styles are inline, so the pages need no other file.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="referrer" content="no-referrer">
        <title>\(HTML.escape(title))</title>
        <style>\(GalleryStyle.css)</style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }
}
