/// The origin of a URL (RFC 6454: scheme, host and port) as a key, e.g. `https://example.org:443`:
/// what the per-host limits count by. A request is counted by the URL it asks for; where its
/// redirects lead is not known before it is sent.
public enum Origin {
    /// Scheme and host lower-cased, the default port written out, user info dropped, so that
    /// `HTTPS://Example.org/a` and `https://example.org:443/b` are one host. Text that is not an
    /// absolute URL is its own key (such a request fails in the loader anyway).
    public static func of(_ url: String) -> String {
        guard let separator = url.range(of: "://") else { return url.lowercased() }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port = ""
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = String(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = String(authority[authority.index(after: colon)...])
        }
        if port.isEmpty { port = defaultPorts[scheme] ?? "" }
        return port.isEmpty ? "\(scheme)://\(host.lowercased())" : "\(scheme)://\(host.lowercased()):\(port)"
    }

    private static let defaultPorts = ["http": "80", "https": "443"]
}
