/// The viewer of a feed page: for each item whose original is mirrored, a hidden overlay that
/// CSS shows while the URL's fragment names it (`#v3`, `:target`), with the original, its title
/// and links to the previous and next ones. It needs no script and works from file://; the
/// original is `loading="lazy"` inside a `display:none` box, so none is fetched until shown.
/// `keys` is the one script, for the arrow keys and Escape (the links do the same by click).
enum ItemViewer {
    struct Entry {
        let number: Int
        let title: String
        /// Relative to the page.
        let original: String
    }

    static func write(_ entries: [Entry], to html: inout HTMLBuffer) {
        for (index, entry) in entries.enumerated() {
            html.markup("<div class=\"lb\" id=\"v")
            html.number(entry.number)
            html.markup("\"><a class=\"close\" href=\"#t")
            html.number(entry.number)
            html.markup("\" title=\"close (Esc)\">×</a>")
            if index > 0 { link("prev", "‹", "previous (←)", to: entries[index - 1].number, in: &html) }
            html.markup("<figure><img src=\"")
            html.markup(entry.original)
            html.markup("\" alt=\"")
            html.text(entry.title)
            html.markup("\" loading=\"lazy\"><figcaption>")
            html.text(entry.title)
            html.markup(" · <a href=\"")
            html.markup(entry.original)
            html.markup("\">original</a></figcaption></figure>")
            if index + 1 < entries.count { link("next", "›", "next (→)", to: entries[index + 1].number, in: &html) }
            html.markup("</div>\n")
        }
        if !entries.isEmpty {
            html.markup("<script>")
            html.markup(keys)
            html.markup("</script>\n")
        }
    }

    private static func link(_ kind: StaticString, _ label: StaticString, _ title: StaticString, to number: Int,
                             in html: inout HTMLBuffer) {
        html.markup("<a class=\"")
        html.markup(kind)
        html.markup("\" href=\"#v")
        html.number(number)
        html.markup("\" title=\"")
        html.markup(title)
        html.markup("\">")
        html.markup(label)
        html.markup("</a>")
    }

    /// Left and right follow the open viewer's previous and next links, Escape its close link.
    /// Allowed by its hash in the pages' Content-Security-Policy, and by nothing else.
    static let keys = """
        addEventListener("keydown",function(e){var v=location.hash.slice(1),b=v&&document.getElementById(v),\
        k={ArrowLeft:"prev",ArrowRight:"next",Escape:"close"}[e.key],a=b&&k&&b.classList.contains("lb")&&\
        b.querySelector("a."+k);if(a){e.preventDefault();location.replace(a.href)}})
        """
}
