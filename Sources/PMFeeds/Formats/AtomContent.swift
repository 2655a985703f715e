import Foundation

/// Atom text constructs as description text: Atom 1.0 `type="text|html|xhtml"`, and Atom 0.3's
/// `mode="xml|escaped|base64"` beside a MIME `type`.
enum AtomContent {
    /// `text`, `html` and escaped content arrive as decoded text; inline XHTML (1.0 `xhtml`, 0.3
    /// `mode="xml"` with elements) keeps its character data only, since the description is shown
    /// as untrusted text anyway; base64 is decoded when it is UTF-8.
    static func text(_ element: XMLTreeElement?) -> String? {
        guard let element else { return nil }
        switch element.attributes["mode"]?.lowercased() {
        case "base64": return base64Text(element)
        case "escaped": return element.text
        default: return element.attributes["type"] == "xhtml" || !element.children.isEmpty ? element.deepText : element.text
        }
    }

    /// Atom 0.3 `mode="base64"` content as UTF-8 text, nil when it is no such thing.
    static func base64Text(_ element: XMLTreeElement) -> String? {
        let compact = element.text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact) else { return nil }
        return String(bytes: data, encoding: .utf8)
    }
}
