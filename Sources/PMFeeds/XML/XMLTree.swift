import CXML2
import Foundation

/// A namespace-resolved element tree built from libxml2's xmlTextReader. Feeds are small
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
    var hasExplicitBase = false

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
    /// Parses `bytes` into the root element, or throws with libxml2's position, error code and message.
    ///
    /// libxml2 is called directly: FoundationXML's `XMLParser` dereferenced the NULL that libxml2 passes
    /// for a processing instruction without data (`<?x?>`, also from an entity or a declared encoding
    /// such as UTF-7 or EBCDIC), which killed the process. libxml2 builds its tree, then its
    /// xmlTextReader walks it: processing instructions, comments and the DTD are skipped, and every
    /// string is copied with repair. Options: no network, nothing printed, no entity substitution and no
    /// external DTD or entity loading (a feed cannot make us read files). Internal entities are
    /// expanded here, as text, within `entityTextLimit`.
    static func parse(_ bytes: [UInt8], baseURL: URL) throws(FeedError) -> XMLTreeElement {
        try checkEncoding(bytes)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            throw FeedError("feed looks like XML but is \(bytes.isEmpty ? "empty" : "too large to read")")
        }
        _ = libxml2Initialized
        let builder = TreeBuilder(baseURL: baseURL)
        let errors = ReaderErrors()
        let status: Int32 = withExtendedLifetime(errors) {
            // Errors go to the calling thread's handlers, which would print them to stderr: collect
            // them for this call, and silence the unstructured channel (nothing else here uses libxml2).
            pm_xml_silence_generic_errors()
            xmlSetStructuredErrorFunc(Unmanaged.passUnretained(errors).toOpaque(), recordError)
            defer { xmlSetStructuredErrorFunc(nil, nil) }
            let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            func read(_ options: UInt32) -> xmlDocPtr? {
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        xmlReadMemory($0.baseAddress, Int32($0.count), nil, nil, Int32(options))
                    }
                }
            }
            // Markup after a complete root element (a server's appended warning) cost XMLParser nothing:
            // libxml2 keeps the root when told to recover, and that is its only error so far.
            guard let document = read(options) ?? (errors.onlyExtraContentAfterRoot
                                                   ? read(options | XML_PARSE_RECOVER.rawValue) : nil) else { return -1 }
            defer { xmlFreeDoc(document) }
            guard let walker = xmlReaderWalker(document) else { return -2 }
            defer { xmlFreeTextReader(walker) }
            var status: Int32
            repeat {
                status = xmlTextReaderRead(walker)
                if status == 1, !builder.take(walker) { return -3 }
            } while status == 1
            return status
        }
        if status == -3 {
            throw FeedError("feed looks like XML but its entities expand to more than \(entityTextLimit) bytes of text")
        }
        guard status == 0, let root = builder.root else { throw errors.feedError(status: status) }
        return root
    }

    /// Total text that references to internal entities may add to one document: linear in the number
    /// of references, so `<!ENTITY x "(50 KB)">` referenced 50 000 times cannot inflate to gigabytes.
    /// (libxml2 itself refuses nested "billion laughs" entities.)
    static let entityTextLimit = 1 << 20

    /// `xmlInitParser` once, before any concurrent use (Swift runs a static's initializer exactly once).
    private static let libxml2Initialized: Void = xmlInitParser()

    /// libxml2 reads a document as UTF-8 unless its XML declaration names another encoding (which
    /// it then converts, or refuses), and passes on the raw bytes of names (elements, attributes,
    /// prefixes, comments, processing instructions, entity references): FoundationXML's `XMLParser`,
    /// used before, force-unwrapped their UTF-8 decoding, so one invalid byte in a name killed the
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

/// Errors libxml2 reports while reading; the first fatal one (else the first) explains a failure.
/// Lives only for one synchronous `parse()` call on the caller's thread.
private final class ReaderErrors {
    private var code: Int32 = 0, line: Int32 = 0, column: Int32 = 0, level = XML_ERR_NONE, message = ""

    func record(_ error: xmlError) {
        guard code == 0 || level != XML_ERR_FATAL && error.level == XML_ERR_FATAL else { return }
        code = error.code
        line = error.line
        column = error.int2
        level = error.level
        message = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    /// The first fatal error is "Extra content at the end of the document": the root was complete.
    var onlyExtraContentAfterRoot: Bool { level == XML_ERR_FATAL && code == XML_ERR_DOCUMENT_END.rawValue }

    func feedError(status: Int32) -> FeedError {
        if status == -2 { return FeedError("feed looks like XML but libxml2 could not walk its tree") }
        if status == 0 { return FeedError("feed looks like XML but has no root element") }
        guard code != 0 else { return FeedError("feed looks like XML but libxml2 could not read it (no reason given)") }
        let encoding = code == XML_ERR_UNSUPPORTED_ENCODING.rawValue || code == XML_ERR_INVALID_ENCODING.rawValue
            || code == XML_I18N_CONV_FAILED.rawValue || code == XML_I18N_NO_HANDLER.rawValue
        let position = line > 0 ? "line \(line), column \(column), " : ""  // none for a failed conversion
        let detail = "\(position)libxml2 error \(code)\(message.isEmpty ? "" : ": " + message)"
        return FeedError(encoding ? "feed looks like XML but its encoding cannot be read (\(detail))"
                                  : "feed looks like XML but is not well-formed (\(detail))")
    }
}

/// libxml2's structured error callback; `context` is the parse's `ReaderErrors`.
private let recordError: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    Unmanaged<ReaderErrors>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
}

/// Turns the reader's node stream into the tree. Lives only for one synchronous `parse()` call.
private final class TreeBuilder {
    private let baseURL: URL
    private var stack: [XMLTreeElement] = []
    private var entityText = 0
    private(set) var root: XMLTreeElement?

    init(baseURL: URL) { self.baseURL = baseURL }

    /// Takes the reader's current node; false when entity text went past `XMLTree.entityTextLimit`.
    func take(_ reader: xmlTextReaderPtr) -> Bool {
        switch xmlReaderTypes(rawValue: UInt32(xmlTextReaderNodeType(reader))) {
        case XML_READER_TYPE_ELEMENT:
            let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1  // before `start` moves to the attributes
            start(reader)
            if isEmpty { end() }
        case XML_READER_TYPE_END_ELEMENT:
            end()
        case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_WHITESPACE,
             XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
            append(string(xmlTextReaderConstValue(reader)))
        case XML_READER_TYPE_ENTITY_REFERENCE:
            // An internal entity's replacement text (libxml2 parsed and checked it); an undeclared
            // or external one has none. Markup inside it is kept as its text only.
            guard let node = xmlTextReaderCurrentNode(reader), let buffer = xmlBufferCreate() else { return true }
            defer { xmlBufferFree(buffer) }
            guard xmlNodeBufGetContent(buffer, node) == 0 else { return true }
            let text = string(xmlBufferContent(buffer))
            entityText += text.utf8.count
            guard entityText <= XMLTree.entityTextLimit else { return false }
            append(text)
        default:
            break  // processing instructions, comments, the document type: not feed content
        }
        return true
    }

    private func start(_ reader: xmlTextReaderPtr) {
        let name = string(xmlTextReaderConstLocalName(reader))
        let namespace = XMLNamespace.normalized(string(xmlTextReaderConstNamespaceUri(reader)))
        var attributes: [String: String] = [:]
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            guard xmlTextReaderIsNamespaceDecl(reader) != 1 else { continue }
            attributes[string(xmlTextReaderConstName(reader))] = string(xmlTextReaderConstValue(reader))
        }
        var base = stack.last?.base ?? baseURL
        if let xmlBase = attributes["xml:base"], let refined = URL(string: xmlBase, relativeTo: base) {
            base = refined.absoluteURL
        }
        stack.append(XMLTreeElement(namespace: namespace, name: name, attributes: attributes, base: base))
    }

    private func end() {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    private func append(_ text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += text
    }

    /// libxml2's UTF-8 (invalid sequences repaired); "" for NULL.
    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
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
    /// RSS 0.90's namespace (its items sit beside the channel, as in RSS 1.0).
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9"
    /// Userland's namespace for RSS 2.0, used by some early RSS 2.0 feeds on `<rss>` itself.
    static let userlandRSS2 = "http://backend.userland.com/rss2"
    static let atom03 = "http://purl.org/atom/ns#"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let googleplay = "http://www.google.com/schemas/play-podcasts/1.0"

    /// Feeds disagree on the trailing slash of the Media RSS and Dublin Core URIs; compare without it.
    static func normalized(_ uri: String?) -> String {
        guard var uri, !uri.isEmpty else { return none }
        while uri.hasSuffix("/") { uri.removeLast() }
        return uri
    }
}
