/// Prefixes feeds use without declaring them (`<media:content>` pasted into a plain RSS 2.0
/// template). libxml2 reports a namespace error, which is not fatal, and names the element
/// `media:content` with no namespace; the mappers look for Media RSS's `content`.
enum XMLPrefixes {
    static let wellKnown: [String: String] = [
        "media": XMLNamespace.media,
        "dc": XMLNamespace.dublinCore,
        "content": XMLNamespace.content,
        "itunes": XMLNamespace.itunes,
        "googleplay": XMLNamespace.googleplay,
        "atom": XMLNamespace.atom,
    ]

    /// The namespace and local name for a qualified name whose prefix was never declared, or nil
    /// when the prefix is not one of the well-known ones.
    /// Called for every element without a namespace (all of a plain RSS feed's): the colon is
    /// looked for in the UTF-8 bytes, as a search by Character costs ~2 K instructions a name.
    static func resolve(undeclared qualifiedName: String) -> (namespace: String, name: String)? {
        let bytes = qualifiedName.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              let namespace = wellKnown[String(qualifiedName[..<colon])] else { return nil }
        let local = qualifiedName[bytes.index(after: colon)...]
        guard !local.isEmpty, !local.utf8.contains(UInt8(ascii: ":")) else { return nil }
        return (namespace, String(local))
    }
}
