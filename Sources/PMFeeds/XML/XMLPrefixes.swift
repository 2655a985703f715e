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
    static func resolve(undeclared qualifiedName: String) -> (namespace: String, name: String)? {
        guard let colon = qualifiedName.firstIndex(of: ":"),
              let namespace = wellKnown[String(qualifiedName[..<colon])] else { return nil }
        let local = qualifiedName[qualifiedName.index(after: colon)...]
        guard !local.isEmpty, !local.contains(":") else { return nil }
        return (namespace, String(local))
    }
}
