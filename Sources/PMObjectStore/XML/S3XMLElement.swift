import CXML2

/// An element of one of S3's XML answers, by local name (S3 puts everything in one namespace).
/// The answers are small and flat, so a tree is the plainest way to read them.
struct S3XMLElement: Sendable, Equatable {
    var name: String
    /// Direct character data, entities decoded, untrimmed.
    var text = ""
    var children: [S3XMLElement] = []

    func child(_ name: String) -> S3XMLElement? {
        children.first { $0.name == name }
    }

    func children(_ name: String) -> [S3XMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first such child, or nil when there is none.
    func childText(_ name: String) -> String? {
        child(name)?.text
    }

    /// The root element of `bytes`, or nil when they are not well-formed XML.
    ///
    /// libxml2 options: no network, nothing printed, no entity substitution and no DTD
    /// loading, so an answer cannot make us read files. libxml2 itself caps nesting depth,
    /// which bounds the recursion here.
    static func parse(_ bytes: [UInt8]) -> S3XMLElement? {
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
        _ = libxml2Initialized
        pm_xml_silence_generic_errors()
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlReadMemory($0.baseAddress, Int32($0.count), nil, nil, Int32(options))
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return nil }
        return element(root)
    }

    /// `xmlInitParser` once, before any concurrent use (a static initialiser runs exactly once).
    private static let libxml2Initialized: Void = xmlInitParser()

    private static func element(_ node: xmlNodePtr) -> S3XMLElement {
        var element = S3XMLElement(name: string(node.pointee.name))
        var next = node.pointee.children
        while let child = next {
            switch child.pointee.type {
            case XML_ELEMENT_NODE:
                element.children.append(self.element(child))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                element.text += string(child.pointee.content)
            default:
                break  // comments, processing instructions
            }
            next = child.pointee.next
        }
        return element
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
