import Foundation
import FoundationXML

/// A namespace-resolved element tree built from `XMLParser`'s SAX callbacks. Feeds are small
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

    func children(_ namespace: String, _ name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    func child(_ namespace: String, _ name: String) -> XMLTreeElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Trimmed text of the first such child, nil when absent or blank.
    func childText(_ namespace: String, _ name: String) -> String? {
        guard let text = child(namespace, name)?.text.trimmingCharacters(in: .whitespacesAndNewlines),
              !text.isEmpty else { return nil }
        return text
    }

    /// All character data below this element, for Atom's `type="xhtml"` content.
    var deepText: String { text + children.map(\.deepText).joined() }

    /// `reference` resolved against this element's base; unresolvable text is returned trimmed as is.
    func resolve(_ reference: String) -> String {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(string: trimmed, relativeTo: base)?.absoluteString ?? trimmed
    }
}

enum XMLTree {
    /// Parses `bytes` into the root element, or throws with the parser's position and error code.
    /// External entities stay unresolved (`XMLParser`'s default), so a feed cannot make us read files.
    static func parse(_ bytes: [UInt8], baseURL: URL) throws(FeedError) -> XMLTreeElement {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder(baseURL: baseURL)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let code = (parser.parserError as NSError?)?.code ?? -1
            throw FeedError("feed looks like XML but is not well-formed (line \(parser.lineNumber), "
                            + "column \(parser.columnNumber), libxml2 error \(code))")
        }
        return root
    }
}

/// Lives only for one synchronous `parse()` call on the caller's thread.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private let baseURL: URL
    private var stack: [XMLTreeElement] = []
    private(set) var root: XMLTreeElement?

    init(baseURL: URL) { self.baseURL = baseURL }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        var base = stack.last?.base ?? baseURL
        if let xmlBase = attributes["xml:base"], let refined = URL(string: xmlBase, relativeTo: base) {
            base = refined.absoluteURL
        }
        stack.append(XMLTreeElement(namespace: XMLNamespace.normalized(namespaceURI), name: elementName,
                                    attributes: attributes, base: base))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
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

    /// Feeds disagree on the trailing slash of the Media RSS and Dublin Core URIs; compare without it.
    static func normalized(_ uri: String?) -> String {
        guard var uri, !uri.isEmpty else { return none }
        while uri.hasSuffix("/") { uri.removeLast() }
        return uri
    }
}
