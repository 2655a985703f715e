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

    // libxml2's HTML parser in SAX mode: only the start of each element is looked at and no tree
    // is built, which is most of what parsing an item's HTML would cost.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        _ = libxml2Initialized
        guard let context = htmlNewParserCtxt() else { return [] }
        defer { htmlFreeParserCtxt(context) }
        // Errors go to the calling thread's handlers, which would print them: silence both channels
        // for this call (libxml2 keeps them per thread, so concurrent parses do not interfere).
        pm_xml_silence_generic_errors()
        xmlSetStructuredErrorFunc(nil, ignoreError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        var handler = htmlSAXHandler()
        handler.initialized = 1
        handler.startElement = imageStart
        context.pointee.sax.pointee = handler
        let collector = ImageCollector()
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NOIMPLIED.rawValue
        withExtendedLifetime(collector) {
            context.pointee.userData = Unmanaged.passUnretained(collector).toOpaque()
            let document = bytes.withMemoryRebound(to: CChar.self) {
                htmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), nil, "UTF-8", Int32(options))
            }
            if let document { xmlFreeDoc(document) }
        }
        return collector.urls
    }
}

/// The URLs found so far in one synchronous parse.
private final class ImageCollector {
    var urls: [String] = []
}

/// The SAX start-of-element callback: `attributes` is a NULL-terminated list of name, value
/// pairs, names lowercased by the HTML parser, values with entities decoded.
private let imageStart: startElementSAXFunc = { context, name, attributes in
    guard let context, let name, name[0] == UInt8(ascii: "i"), name[1] == UInt8(ascii: "m"),
          name[2] == UInt8(ascii: "g"), name[3] == 0 else { return }
    let collector = Unmanaged<ImageCollector>.fromOpaque(context).takeUnretainedValue()
    guard collector.urls.count < HTMLImages.imageLimit else { return }
    let url = HTMLImageAttributes.url { wanted in
        guard var pair = attributes else { return nil }
        return wanted.withCString { wantedName -> String? in
            while let attributeName = pair.pointee {
                let value = pair.successor().pointee
                if strcmp(UnsafeRawPointer(attributeName).assumingMemoryBound(to: CChar.self), wantedName) == 0 {
                    return value.map { String(cString: $0) } ?? ""
                }
                pair = pair.advanced(by: 2)
            }
            return nil
        }
    }
    if let url { collector.urls.append(url) }
}

private let ignoreError: xmlStructuredErrorFunc = { _, _ in }
