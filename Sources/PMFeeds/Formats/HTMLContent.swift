/// The `<img>` references of an element holding HTML, however the format carries it.
enum HTMLContent {
    /// XHTML (Atom `type="xhtml"`, Atom 0.3 `mode="xml"`) is already elements in the tree; anything
    /// else is text that may be HTML (RSS `description`, Atom `type="html"`, Atom 0.3 `mode="escaped"`).
    /// Atom `type="text"` is plain text, whose `<img` is no image.
    static func imageReferences(in element: XMLTreeElement) -> [String] {
        let type = element.attributes["type"]?.lowercased()
        if type == "text" || type == "text/plain" { return [] }
        switch element.attributes["mode"]?.lowercased() {
        case "base64": return HTMLImages.urls(in: AtomContent.base64Text(element) ?? "")
        case "escaped": return HTMLImages.urls(in: element.text)
        default:
            if type == "xhtml" || !element.children.isEmpty { return xhtmlImages(in: element) }
            return HTMLImages.urls(in: element.text)
        }
    }

    /// Whether `element` has an `<img` to offer at all: the cheap test, not the parse.
    static func mayHoldImages(_ element: XMLTreeElement) -> Bool {
        guard !element.children.isEmpty else {
            var text = element.text
            return text.withUTF8(HTMLImages.containsImageTag)
        }
        return element.children.contains { $0.name.lowercased() == "img" || mayHoldImages($0) }
    }

    /// `img` elements below `element` in document order (any namespace: feeds forget the XHTML one).
    private static func xhtmlImages(in element: XMLTreeElement) -> [String] {
        var urls: [String] = []
        var stack = [element]
        while let next = stack.popLast(), urls.count < HTMLImages.imageLimit {
            if next.name.lowercased() == "img", let url = HTMLImageAttributes.url({ next.attributes[$0] }) { urls.append(url) }
            stack.append(contentsOf: next.children.reversed())
        }
        return urls
    }
}
