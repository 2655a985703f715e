/// The origin of a URL (RFC 6454: scheme, host and port) as a key, e.g. `https://example.org:443`:
/// what the per-host limits count by. A request is counted by the URL it asks for; where its
/// redirects lead is not known before it is sent.
public enum Origin {
    /// Scheme and host lower-cased, the default port written out, user info dropped, so that
    /// `HTTPS://Example.org/a` and `https://example.org:443/b` are one host. Text that is not an
    /// absolute URL is its own key (such a request fails in the loader anyway).
    public static func of(_ url: String) -> String {
        // Bytes, not Characters: every delimiter is ASCII, and this runs for every request.
        let bytes = url.utf8
        guard let separator = firstIndex(of: "://", in: bytes) else { return url.lowercased() }
        let scheme = url[..<separator].lowercased()
        let rest = bytes[bytes.index(separator, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        var authority = rest[..<(authorityEnd ?? rest.endIndex)]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port = ""
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.first == UInt8(ascii: ":") { port = String(Substring(after.dropFirst())) }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = String(Substring(authority[authority.index(after: colon)...]))
        }
        if port.isEmpty { port = defaultPorts[scheme] ?? "" }
        let hostText = Substring(host).lowercased()
        return port.isEmpty ? "\(scheme)://\(hostText)" : "\(scheme)://\(hostText):\(port)"
    }

    private static func firstIndex(of needle: StaticString, in bytes: String.UTF8View) -> String.Index? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index...].starts(with: pattern) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }

    private static let defaultPorts = ["http": "80", "https": "443"]
}
