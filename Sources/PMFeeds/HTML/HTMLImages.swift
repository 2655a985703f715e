import CXML2
import Foundation

/// The images of an HTML fragment (an item's description or content), read with libxml2's HTML
/// parser, which recovers from any markup the way browsers broadly do, unlike a pattern match.
enum HTMLImages {
    /// Fragments larger than this are not searched: no real item's text is this large, and the
    /// parse must stay bounded for hostile input.
    static let byteLimit = 4 << 20
    /// At most this many images are taken from one fragment.
    static let imageLimit = 200

    /// The URL of each `<img>` (see `HTMLImageAttributes.url`), in document order, unresolved and
    /// possibly repeated. Text without `<img` is not parsed at all: most items have none.
    static func urls(in html: String) -> [String] {
        var html = html
        return html.withUTF8 { bytes in
            guard bytes.count <= byteLimit, containsImageTag(bytes) else { return [] }
            return parse(bytes)
        }
    }

    /// `<img` in any letter case, the cheap test that spares the parse.
    static func containsImageTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard open + 3 < bytes.count else { return false }
            if bytes[open + 1] | 0x20 == UInt8(ascii: "i"), bytes[open + 2] | 0x20 == UInt8(ascii: "m"),
               bytes[open + 3] | 0x20 == UInt8(ascii: "g") { return true }
            index = open + 1
        }
        return false
    }

    private static let libxml2Initialized: Void = xmlInitParser()

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        _ = libxml2Initialized
        // Errors go to the calling thread's handlers, which would print them: silence both channels
        // for this call (libxml2 keeps them per thread, so concurrent parses do not interfere).
        pm_xml_silence_generic_errors()
        xmlSetStructuredErrorFunc(nil, ignoreError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NOIMPLIED.rawValue
        let document = bytes.withMemoryRebound(to: CChar.self) {
            htmlReadMemory($0.baseAddress, Int32($0.count), nil, "UTF-8", Int32(options))
        }
        guard let document else { return [] }
        defer { xmlFreeDoc(document) }
        var urls: [String] = []
        // Iterative, so deeply nested markup cannot exhaust the stack.
        var node = document.pointee.children
        while let current = node, urls.count < imageLimit {
            if current.pointee.type == XML_ELEMENT_NODE, isImage(current),
               let url = HTMLImageAttributes.url({ attribute(current, $0) }) {
                urls.append(url)
            }
            node = next(after: current)
        }
        return urls
    }

    /// The next node in document order below the document.
    private static func next(after node: xmlNodePtr) -> xmlNodePtr? {
        if node.pointee.type == XML_ELEMENT_NODE, let child = node.pointee.children { return child }
        var current: xmlNodePtr? = node
        while let here = current {
            if let sibling = here.pointee.next { return sibling }
            current = here.pointee.parent
            if current?.pointee.type == XML_HTML_DOCUMENT_NODE || current?.pointee.type == XML_DOCUMENT_NODE { return nil }
        }
        return nil
    }

    private static func isImage(_ node: xmlNodePtr) -> Bool {
        guard let name = node.pointee.name else { return false }
        // The HTML parser lowercases element names.
        return name[0] == UInt8(ascii: "i") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "g") && name[3] == 0
    }

    /// An attribute's value: the text of its children (the HTML parser has decoded entities).
    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        var property = node.pointee.properties
        while let current = property {
            defer { property = current.pointee.next }
            guard let attributeName = current.pointee.name, String(cString: attributeName).lowercased() == name else { continue }
            var value = ""
            var text = current.pointee.children
            while let piece = text {
                if let content = piece.pointee.content { value += String(cString: content) }
                text = piece.pointee.next
            }
            return value
        }
        return nil
    }
}

private let ignoreError: xmlStructuredErrorFunc = { _, _ in }
