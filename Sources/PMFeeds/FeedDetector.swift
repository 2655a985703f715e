import Foundation

/// Decides the feed kind from the bytes alone: the same URL can answer JSON, JSONP or XML
/// depending on `format=`, and a proxy or error page can answer anything.
enum FeedDetector {
    /// One case per `FeedKind`, carrying the already-decoded document.
    enum Detected {
        case flickrPublic(JSONValue), flickrSearch(JSONValue), marvel(JSONValue), jsonFeed(JSONValue)
        case rss(XMLTreeElement), atom(XMLTreeElement)
    }

    /// The document and what had to be repaired to read it (`ParsedFeed.warnings`).
    static func detect(_ bytes: [UInt8], url: URL, contentType: String?) throws(FeedError) -> (Detected, warnings: [String]) {
        let start = JSONPUnwrapper.skipWhitespace(bytes, from: 0)
        // A local file's bytes are never quoted: `file:///proc/self/environ` is not a feed, but
        // its first bytes are secrets.
        let quoting = !url.isFileURL
        guard start < bytes.count else { throw unrecognized(bytes, contentType, "the body is empty", quoting: quoting) }
        // Markup behind a byte-order mark or in UTF-16/32 too; JSON in those starts with `{` or `[`.
        if XMLCharset.startsWithMarkup(bytes) { return try detectXML(bytes, url: url, contentType: contentType) }
        return (try detectNonXML(bytes, from: start, contentType: contentType, quoting: quoting), [])
    }

    private static func detectNonXML(_ bytes: [UInt8], from start: Int, contentType: String?,
                                     quoting: Bool) throws(FeedError) -> Detected {
        // JSON is read in place (no copy of the body): feeds run to megabytes.
        if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            return try detectJSON(bytes, start..<bytes.count, contentType: contentType, form: "JSON", quoting: quoting)
        }
        if let payload = JSONPUnwrapper.unwrap(bytes, from: start) {
            return try detectJSON(bytes, payload.indices, contentType: contentType, form: "JSONP", quoting: quoting)
        }
        throw unrecognized(bytes, contentType, "it is neither JSON, JSONP nor XML", quoting: quoting)
    }

    private static func detectJSON(_ bytes: [UInt8], _ range: Range<Int>, contentType: String?,
                                   form: String, quoting: Bool) throws(FeedError) -> Detected {
        let root = try JSONValue.decode(bytes, in: range, as: "the \(form) body")
        func unrecognized(_ detail: String) -> FeedError { Self.unrecognized(Array(bytes[range]), contentType, detail, quoting: quoting) }
        guard let object = root.object else {
            throw unrecognized("it is \(form) but the top level is \(root.typeName), not an object")
        }
        switch jsonKind(root) {
        case .jsonFeed?: return .jsonFeed(root)
        case .flickrSearch?: return .flickrSearch(root)
        case .marvel?: return .marvel(root)
        case .flickrPublic?: return .flickrPublic(root)
        default: break
        }
        let keys = object.keys.sorted().prefix(8).joined(separator: ", ")
        throw unrecognized("it is a \(form) object with keys [\(keys)] that match no known feed")
    }

    /// The kind of a JSON document's top-level object, as its members say; nil for none we read.
    /// Only `items`' first element is looked at.
    static func jsonKind(_ root: JSONValue) -> FeedKind? {
        if JSONFeed.isJSONFeed(root) { return .jsonFeed }
        if root["stat"]?.string != nil || root["photos"]?.object != nil || root["photoset"]?.object != nil {
            return .flickrSearch
        }
        if root["data"]?["results"] != nil
            || (root["code"] != nil && (root["status"] != nil || root["message"] != nil) && root["items"] == nil) {
            return .marvel
        }
        if let items = root["items"]?.array, isFlickrPublic(root, items: items) { return .flickrPublic }
        return nil
    }

    /// Flickr's public feed has no version marker; its generator, link or item shape identify it.
    private static func isFlickrPublic(_ root: JSONValue, items: [JSONValue]) -> Bool {
        let generator = root["generator"]?.string ?? "", link = root["link"]?.string ?? ""
        return generator.contains("flickr.com") || link.contains("flickr.com") || items.first?["media"]?.object != nil
    }

    private static func detectXML(_ bytes: [UInt8], url: URL, contentType: String?) throws(FeedError) -> (Detected, warnings: [String]) {
        let decoded = XMLCharset.decode(bytes, contentType: contentType)
        let head = String(decoding: decoded.utf8.prefix(256), as: UTF8.self).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") {
            throw unrecognized(bytes, contentType, "it is an HTML page, not a feed", quoting: !url.isFileURL)
        }
        let document = try XMLDocumentReader.read(decoded.utf8, baseURL: url)
        let root = document.root, warnings = decoded.warnings + document.warnings
        if let detected = feedElement(root) { return (detected, warnings) }
        if let (detected, warning) = UnexpectedRootNamespace.adopted(root) { return (detected, warnings + [warning]) }
        // Some servers wrap the feed in an XHTML page (html/body/feed); feed readers find it there.
        if root.namespace == XMLNamespace.xhtml, let (detected, depth) = nestedFeed(in: root, depth: 1) {
            return (detected, warnings + ["the feed is inside an XHTML page, \(depth) elements down; read from there"])
        }
        let namespace = root.namespace.isEmpty ? "" : " in namespace \(root.namespace)"
        throw unrecognized(bytes, contentType, "it is XML with root element <\(root.name)>\(namespace)", quoting: !url.isFileURL)
    }

    private static func feedElement(_ element: XMLTreeElement) -> Detected? {
        switch (element.namespace, element.name) {
        case (XMLNamespace.none, "rss"), (XMLNamespace.userlandRSS2, "rss"), (XMLNamespace.rdf, "RDF"): .rss(element)
        case (XMLNamespace.atom, "feed"), (XMLNamespace.atom03, "feed"): .atom(element)
        default: nil
        }
    }

    /// The first feed element at most three levels below `element`, breadth first.
    private static func nestedFeed(in element: XMLTreeElement, depth: Int) -> (Detected, depth: Int)? {
        guard depth <= 3 else { return nil }
        for child in element.children { if let found = feedElement(child) { return (found, depth) } }
        for child in element.children { if let found = nestedFeed(in: child, depth: depth + 1) { return found } }
        return nil
    }

    /// `quoting`: whether the message may show the first bytes (a server's answer, not a local file).
    static func unrecognized(_ bytes: [UInt8], _ contentType: String?, _ detail: String, quoting: Bool) -> FeedError {
        let type = contentType.map { "content type \"\(escaped(Array($0.utf8), limit: 80))\", " } ?? ""
        let start = quoting ? "\(bytes.count) bytes starting \"\(escaped(bytes, limit: 40))\(bytes.count > 40 ? "…" : "")\""
            : "\(bytes.count) bytes"
        let kinds = FeedKind.allCases.map(\.displayName).joined(separator: "; ")
        return FeedError("unrecognized feed: received \(type)\(start); \(detail). Supported kinds: \(kinds)")
    }

    /// Printable ASCII as is, everything else as `\n`, `\t`, `\xNN`: the bytes are untrusted and may
    /// hold terminal escapes or invalid UTF-8.
    static func escaped(_ bytes: [UInt8], limit: Int) -> String {
        var out = ""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
