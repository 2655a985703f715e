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
        try checkEncoding(bytes)
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

    /// libxml2 reads a document as UTF-8 unless its XML declaration names another encoding (which
    /// it then converts, or refuses), and passes the raw bytes of names (elements, attributes,
    /// prefixes, comments, processing instructions, entity references) to `XMLParser`, whose
    /// callbacks force-unwrap their UTF-8 decoding: a single invalid byte in a name killed the
    /// process (fuzzing found `<\xff\n\n\n`). libxml2 rejects such documents anyway once it reaches
    /// the byte (error 9), so refusing them first costs no feed and gives a clearer reason.
    /// Only a declared non-Unicode encoding, which libxml2 converts or refuses, skips the check.
    static func checkEncoding(_ bytes: [UInt8]) throws(FeedError) {
        guard !libxml2Converts(bytes), let offset = firstInvalidUTF8(bytes) else { return }
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        throw FeedError("feed looks like XML but is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex) at "
                        + "offset \(offset)) and its XML declaration names no other encoding")
    }

    /// True when libxml2 transcodes the input to UTF-8 itself: UTF-16LE without a byte-order mark
    /// (`<?` as 16-bit units), or a well-formed XML declaration whose `encoding` is not a Unicode
    /// form. libxml2 then converts, or stops at once when it has no converter for the name. A
    /// malformed declaration or name (`encoding="u><…"`, found by fuzzing) is only reported as an
    /// error and the bytes are read as UTF-8, as they are for `UTF-8`, `utf8` and `UTF-16` on 8-bit input.
    private static func libxml2Converts(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return true }
        guard let name = declaredEncoding(bytes)?.lowercased() else { return false }
        return !["utf", "ucs", "iso-10646"].contains { name.hasPrefix($0) }
    }

    /// The encoding name of an XML declaration in its strict form,
    /// `<?xml S version Eq ('1.n'|"1.n") S encoding Eq ('EncName'|"EncName")`, else nil.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(256))
        var index = 0
        func skip(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard head[index...].starts(with: expected) else { return false }
            index += expected.count
            return true
        }
        func skipSpaces() -> Bool {
            let start = index
            while index < head.count, [0x20, 0x09, 0x0D, 0x0A].contains(head[index]) { index += 1 }
            return index > start
        }
        func equals() -> Bool {
            _ = skipSpaces()
            guard skip("=") else { return false }
            _ = skipSpaces()
            return true
        }
        /// A non-empty quoted value whose bytes all satisfy `allowed(byte, isFirst)`.
        func quoted(_ allowed: (UInt8, Bool) -> Bool) -> [UInt8]? {
            guard index < head.count, head[index] == 0x22 || head[index] == 0x27 else { return nil }
            let quote = head[index]
            let start = index + 1
            var end = start
            while end < head.count, head[end] != quote {
                guard allowed(head[end], end == start) else { return nil }
                end += 1
            }
            guard end < head.count, end > start else { return nil }
            index = end + 1
            return Array(head[start..<end])
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        let dot = UInt8(ascii: "."), one = UInt8(ascii: "1")
        guard skip("<?xml"), skipSpaces(), skip("version"), equals(),
              let version = quoted({ byte, _ in isDigit(byte) || byte == dot }),
              version.count >= 3, version[0] == one, version[1] == dot, version.dropFirst(2).allSatisfy(isDigit),
              skipSpaces(), skip("encoding"), equals(),
              let name = quoted({ byte, first in
                  isLetter(byte) || !first && (isDigit(byte) || byte == dot || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-"))
              }) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// Offset of the first byte that does not start a valid UTF-8 sequence (Swift's strict decoder:
    /// no overlong forms, surrogates or values past U+10FFFF), or nil when all of `bytes` is valid.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
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
