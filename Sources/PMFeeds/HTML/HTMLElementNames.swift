/// The names of HTML's elements, for telling markup from text that mentions `<angle brackets>`:
/// WHATWG HTML's elements (https://html.spec.whatwg.org/multipage/indices.html#elements-3), the
/// obsolete ones feeds still carry (`font`, `center`, `tt`, …), and the rest of feedparser's
/// list of acceptable elements, which its own HTML test uses.
enum HTMLElementNames {
    static let all: Set<String> = [
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote",
        "body", "br", "button", "canvas", "caption", "cite", "code", "col", "colgroup", "data", "datalist",
        "dd", "del", "details", "dfn", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption",
        "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr",
        "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link", "main", "map",
        "mark", "math", "menu", "meta", "meter", "nav", "noscript", "object", "ol", "optgroup", "option",
        "output", "p", "picture", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "search",
        "section", "select", "slot", "small", "source", "span", "strong", "style", "sub", "summary", "sup",
        "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr",
        "track", "u", "ul", "var", "video", "wbr",
        // Obsolete, and feedparser's additions.
        "acronym", "applet", "basefont", "big", "blink", "center", "command", "datagrid", "dir",
        "font", "frame", "frameset", "keygen", "m", "marquee", "multicol", "nextid", "nobr", "noembed",
        "noframes", "plaintext", "sound", "spacer", "strike", "tt", "xmp",
    ]
}
