import CXML2
import Foundation

/// libxml2 glue: UTF-8 bytes in, the element tree out, leniently.
///
/// libxml2 is called directly: FoundationXML's `XMLParser` dereferenced the NULL that libxml2 passes
/// for a processing instruction without data (`<?x?>`), which killed the process. libxml2's
/// xmlTextReader reads the document (as it is parsed, or the tree libxml2 built of it): processing
/// instructions, comments and the DTD are skipped, and every string is copied with repair. Options: no network, nothing printed, no entity
/// substitution and no external DTD or entity loading (a feed cannot make us read files); the input
/// is UTF-8 (`XMLCharset` converted it) and the declaration's `encoding` is ignored. Internal
/// entities are expanded here, as text, within `XMLTree.entityTextLimit`.
///
/// A document is read strictly first. When that fails it is repaired (`XMLAmpersandRepair`) and
/// read again, strictly, then with libxml2's recovery, which closes unclosed and mismatched tags and
/// ignores what follows the root; the strict reading's errors become the warnings. A document
/// with no root element stays an error.
enum XMLDocumentReader {
    struct Document {
        var root: XMLTreeElement
        /// Empty unless the document had to be repaired.
        var warnings: [String]
    }

    static func read(_ utf8: [UInt8], baseURL: URL) throws(FeedError) -> Document {
        guard !utf8.isEmpty, utf8.count <= Int(Int32.max) / 2 else {
            throw FeedError("feed looks like XML but is \(utf8.isEmpty ? "empty" : "too large to read")")
        }
        _ = libxml2Initialized
        let bytes = XMLAmpersandRepair.rewrite(utf8, repair: false).bytes
        // A well-formed document (nearly every feed) is read as it is parsed: libxml2 frees each
        // node once the reader has moved past it, so only our tree grows with the document, not
        // libxml2's beside it. One that is not is read again whole, as below, for libxml2's
        // account of every error and its recovery.
        if let root = try parse(bytes, recover: false, streaming: true, baseURL: baseURL).succeeded() {
            return Document(root: root, warnings: [])
        }
        let strict = parse(bytes, recover: false, baseURL: baseURL)
        if let root = try strict.succeeded() { return Document(root: root, warnings: []) }
        guard !strict.errors.forbidsRecovery else { throw strict.errors.feedError(status: strict.status) }
        let repaired = XMLAmpersandRepair.rewrite(utf8, repair: true)
        for recover in [false, true] {
            if let root = try parse(repaired.bytes, recover: recover, baseURL: baseURL).succeeded() {
                return Document(root: root, warnings: strict.errors.warnings(escapedAmpersands: repaired.escapedAmpersands))
            }
        }
        throw strict.errors.feedError(status: strict.status)
    }

    /// Reads a well-formed document as it is parsed, handing every element below the root to
    /// `handOff` once it is complete, with the elements still open around it (the root first):
    /// one it takes (returns true for) is not kept in the tree. Nil when the document is not
    /// well-formed: `read` it, from the start. Throws what `handOff` throws.
    static func stream(_ utf8: [UInt8], baseURL: URL,
                       handOff: @escaping (XMLTreeElement, _ open: [XMLTreeElement]) throws -> Bool) throws -> XMLTreeElement? {
        guard !utf8.isEmpty, utf8.count <= Int(Int32.max) / 2 else { return nil }
        _ = libxml2Initialized
        let builder = TreeBuilder(baseURL: baseURL)
        builder.handOff = handOff
        let attempt = parse(XMLAmpersandRepair.rewrite(utf8, repair: false).bytes, recover: false, streaming: true,
                            builder: builder, baseURL: baseURL)
        if let failure = builder.failure { throw failure }
        return try attempt.succeeded()
    }

    /// `xmlInitParser` once, before any concurrent use (Swift runs a static's initializer exactly once).
    static let libxml2Initialized: Void = xmlInitParser()

    private struct Attempt {
        var status: Int32
        var root: XMLTreeElement?
        var errors: ReaderErrors

        /// The root when the reading succeeded.
        func succeeded() throws(FeedError) -> XMLTreeElement? {
            if status == -3 {
                throw FeedError("feed looks like XML but its entities expand to more than \(XMLTree.entityTextLimit) bytes of text")
            }
            return status == 0 ? root : nil
        }
    }

    private static func parse(_ bytes: [UInt8], recover: Bool, streaming: Bool = false, builder: TreeBuilder? = nil,
                              baseURL: URL) -> Attempt {
        let builder = builder ?? TreeBuilder(baseURL: baseURL)
        let errors = ReaderErrors()
        let status: Int32 = withExtendedLifetime(errors) {
            // Errors go to the calling thread's handlers, which would print them to stderr: collect
            // them for this call, and silence the unstructured channel (nothing else here uses libxml2).
            pm_xml_silence_generic_errors()
            xmlSetStructuredErrorFunc(Unmanaged.passUnretained(errors).toOpaque(), recordError)
            defer { xmlSetStructuredErrorFunc(nil, nil) }
            if streaming { return stream(bytes, options: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                                            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_IGNORE_ENC.rawValue, into: builder) }
            guard let context = xmlNewParserCtxt() else { return -2 }
            defer { xmlFreeParserCtxt(context) }
            var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_IGNORE_ENC.rawValue
            if recover { options |= XML_PARSE_RECOVER.rawValue }
            let document = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    xmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), nil, "UTF-8", Int32(options))
                }
            }
            guard let document else { return -1 }
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
        return Attempt(status: status == 0 && builder.root == nil ? 0 : status, root: builder.root, errors: errors)
    }

    /// The reader over the bytes as they are parsed, strictly: its status, as `parse`'s.
    private static func stream(_ bytes: [UInt8], options: UInt32, into builder: TreeBuilder) -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let reader = xmlReaderForMemory(characters.baseAddress, Int32(characters.count), nil, "UTF-8",
                                                      Int32(options))
                else { return -2 }
                defer { xmlFreeTextReader(reader) }
                var status: Int32
                repeat {
                    status = xmlTextReaderRead(reader)
                    if status == 1, !builder.take(reader) { return -3 }
                    if builder.failure != nil { return -4 }
                } while status == 1
                return status
            }
        }
    }
}

/// Errors libxml2 reports while reading; the first fatal one (else the first) explains a failure.
/// Lives only for one synchronous parse on the caller's thread.
private final class ReaderErrors {
    private var code: Int32 = 0, line: Int32 = 0, column: Int32 = 0, level = XML_ERR_NONE, message = ""
    /// Every error but namespace ones (an undeclared prefix, mapped by `XMLPrefixes`), as warning text.
    private var descriptions: [String] = []

    func record(_ error: xmlError) {
        if error.domain != Int32(XML_FROM_NAMESPACE.rawValue), descriptions.count < 1000 {
            descriptions.append(Self.describe(line: error.line, column: error.int2, code: error.code, message: Self.message(error)))
        }
        guard code == 0 || level != XML_ERR_FATAL && error.level == XML_ERR_FATAL else { return }
        code = error.code
        line = error.line
        column = error.int2
        level = error.level
        message = Self.message(error)
    }

    private static func message(_ error: xmlError) -> String {
        error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    private static func describe(line: Int32, column: Int32, code: Int32, message: String) -> String {
        let position = line > 0 ? "line \(line), column \(column), " : ""
        return "\(position)libxml2 error \(code)\(message.isEmpty ? "" : ": " + message)"
    }

    /// libxml2 stopped an entity expansion attack ("billion laughs"), which recovery would only
    /// turn into a quietly emptied document.
    var forbidsRecovery: Bool {
        code == XML_ERR_ENTITY_LOOP.rawValue || code == XML_ERR_NO_MEMORY.rawValue
    }

    /// The first three distinct errors, then how many more there were.
    func warnings(escapedAmpersands: Int) -> [String] {
        var distinct: [String] = []
        for description in descriptions where !distinct.contains(description) { distinct.append(description) }
        var warnings = distinct.prefix(3).map { "recovered from malformed XML: " + $0 }
        if distinct.count > 3 { warnings.append("recovered from malformed XML: \(distinct.count - 3) more errors") }
        if warnings.isEmpty { warnings.append("recovered from malformed XML") }
        if escapedAmpersands > 0 {
            warnings.append("recovered from malformed XML: read \(escapedAmpersands) bare '&' as text")
        }
        return warnings
    }

    func feedError(status: Int32) -> FeedError {
        if status == -2 { return FeedError("feed looks like XML but libxml2 could not walk its tree") }
        if status == 0 { return FeedError("feed looks like XML but has no root element") }
        guard code != 0 else { return FeedError("feed looks like XML but libxml2 could not read it (no reason given)") }
        let detail = Self.describe(line: line, column: column, code: code, message: message)
        return FeedError("feed looks like XML but is not well-formed (\(detail))")
    }
}

/// libxml2's structured error callback; `context` is the parse's `ReaderErrors`.
private let recordError: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    Unmanaged<ReaderErrors>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
}

/// Turns the reader's node stream into the tree. Lives only for one synchronous parse.
private final class TreeBuilder {
    private let baseURL: URL
    private var stack: [XMLTreeElement] = []
    private var entityText = 0
    private(set) var root: XMLTreeElement?
    /// Sees each complete element below the root; what it takes is not attached (`stream`).
    var handOff: ((XMLTreeElement, [XMLTreeElement]) throws -> Bool)?
    /// What `handOff` threw: the reading stops.
    private(set) var failure: (any Error)?

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
        var name = string(xmlTextReaderConstLocalName(reader))
        var namespace = XMLNamespace.normalized(string(xmlTextReaderConstNamespaceUri(reader)))
        if namespace == XMLNamespace.none, let resolved = XMLPrefixes.resolve(undeclared: name) {
            (namespace, name) = resolved
        }
        var attributes: [String: String] = [:]
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            guard xmlTextReaderIsNamespaceDecl(reader) != 1 else { continue }
            attributes[string(xmlTextReaderConstName(reader))] = string(xmlTextReaderConstValue(reader))
        }
        var base = stack.last?.base ?? baseURL
        var hasExplicitBase = stack.last?.hasExplicitBase ?? false
        if let xmlBase = attributes["xml:base"], let refined = URL(string: xmlBase, relativeTo: base) {
            base = refined.absoluteURL
            hasExplicitBase = true
        }
        stack.append(XMLTreeElement(namespace: namespace, name: name, attributes: attributes, base: base,
                                    hasExplicitBase: hasExplicitBase))
    }

    private func end() {
        guard let finished = stack.popLast() else { return }
        if let handOff, !stack.isEmpty {
            do {
                if try handOff(finished, stack) { return }
            } catch {
                failure = error
                return
            }
        }
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
