import Foundation

/// A namespace-resolved element tree built from libxml2's xmlTextReader (XMLDocumentReader). Feeds are small
/// (tens of KB), so holding the tree is cheap and lets RSS and Atom mapping read like the spec.
struct XMLTreeElement: Sendable {
    var namespace: String
    var name: String
    var attributes: [String: String]
    var children: [XMLTreeElement] = []
    /// Direct character data and CDATA, entities already decoded, untrimmed.
    var text = ""
    /// Effective base URL: the feed URL refined by every `xml:base` on the way down.
    var base: URL?
    /// True when an `xml:base` on this element or an ancestor refined `base`: relative image URLs
    /// then resolve against it rather than the item's link.
    var hasExplicitBase = false

    func children(_ namespace: String, _ name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    func child(_ namespace: String, _ name: String) -> XMLTreeElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Trimmed text of the first such child, nil when absent or blank.
    func childText(_ namespace: String, _ name: String) -> String? {
        guard let text = child(namespace, name).map({ FeedText.trimmingWhitespacesAndNewlines($0.text) }),
              !text.isEmpty else { return nil }
        return text
    }

    /// The elements below this one that match, not looking inside a match: where XML recovery
    /// closed a tag late (an unclosed `<category>` before the items), the items end up nested in
    /// it, and a reader that only looks at direct children would find none of them.
    func outermostDescendants(where matches: (XMLTreeElement) -> Bool) -> [XMLTreeElement] {
        var found: [XMLTreeElement] = []
        var pending = Array(children.reversed())
        while let element = pending.popLast() {
            if matches(element) {
                found.append(element)
            } else {
                pending.append(contentsOf: element.children.reversed())
            }
        }
        return found
    }

    /// All character data below this element, for Atom's `type="xhtml"` content.
    var deepText: String { text + children.map(\.deepText).joined() }

    /// `reference` resolved against this element's base; unresolvable text is returned trimmed as is.
    func resolve(_ reference: String) -> String {
        let trimmed = FeedText.trimmingWhitespacesAndNewlines(reference)
        return URL(string: trimmed, relativeTo: base)?.absoluteString ?? trimmed
    }
}

enum XMLTree {
    /// The root element of an XML document in any charset (see `XMLCharset`), read leniently (see
    /// `XMLDocumentReader`); what had to be repaired is in `FeedDetector`'s warnings, not here.
    static func parse(_ bytes: [UInt8], baseURL: URL, contentType: String? = nil) throws(FeedError) -> XMLTreeElement {
        try XMLDocumentReader.read(XMLCharset.decode(bytes, contentType: contentType).utf8, baseURL: baseURL).root
    }

    /// Total text that references to internal entities may add to one document: linear in the number
    /// of references, so `<!ENTITY x "(50 KB)">` referenced 50 000 times cannot inflate to gigabytes.
    /// (libxml2 itself refuses nested "billion laughs" entities.)
    static let entityTextLimit = 1 << 20
}

/// Namespace URIs the RSS and Atom mappers look for.
enum XMLNamespace {
    static let none = ""
    static let atom = "http://www.w3.org/2005/Atom"
    static let media = "http://search.yahoo.com/mrss"
    static let dublinCore = "http://purl.org/dc/elements/1.1"
    static let content = "http://purl.org/rss/1.0/modules/content"
    static let rss1 = "http://purl.org/rss/1.0"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let flickr = "urn:flickr:user"
    /// RSS 0.90's namespace (its items sit beside the channel, as in RSS 1.0).
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9"
    /// Userland's namespace for RSS 2.0, used by some early RSS 2.0 feeds on `<rss>` itself.
    static let userlandRSS2 = "http://backend.userland.com/rss2"
    static let atom03 = "http://purl.org/atom/ns#"
    static let xhtml = "http://www.w3.org/1999/xhtml"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let googleplay = "http://www.google.com/schemas/play-podcasts/1.0"

    /// Feeds disagree on the trailing slash of the Media RSS and Dublin Core URIs; compare without it.
    /// Apple's own feeds once spelled the iTunes URI `…/DTDs/Podcast-1.0.dtd`, and podcast apps
    /// read either: compare it without case.
    static func normalized(_ uri: String?) -> String {
        guard var uri, !uri.isEmpty else { return none }
        while uri.hasSuffix("/") { uri.removeLast() }
        if uri.count == itunes.count, uri.lowercased() == itunes { return itunes }
        return uri
    }
}

extension XMLTreeElement {
    /// This element with every element of `namespace` in it (itself included) moved to `target`.
    func movingNamespace(_ namespace: String, to target: String) -> XMLTreeElement {
        var moved = self
        if moved.namespace == namespace { moved.namespace = target }
        moved.children = children.map { $0.movingNamespace(namespace, to: target) }
        return moved
    }
}
