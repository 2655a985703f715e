/// URLs as they may be shown and published: without user info (`http://user:pass@host/` →
/// `http://host/`) and without query parameters that carry secrets, so that no page, manifest,
/// sidecar or message repeats a password or an API key the operator put in a URL. The URL that
/// is fetched stays whole; only what is written for people is redacted.
///
/// A secret parameter is one whose name (case-insensitive, percent-decoded) contains `key`,
/// `token`, `secret`, `signature`, `password`, `passwd`, `hash`, `credential` or `session`, or
/// is `ts`, `sig`, `auth`, `pass` or `pwd`: Marvel's `apikey`, `ts` and `hash`, Flickr's
/// `api_key` and `auth_token`, the usual `access_token`, `X-Amz-Signature` and the like.
public enum URLRedaction {
    static let secretNameParts = ["key", "token", "secret", "signature", "password", "passwd", "hash", "credential", "session"]
    static let secretNames: Set<String> = ["ts", "sig", "auth", "pass", "pwd"]

    public static func redacted(_ url: String) -> String {
        var text = Substring(url)
        var fragment: Substring = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = text[hash...]
            text = text[..<hash]
        }
        var query: Substring?
        if let mark = text.firstIndex(of: "?") {
            query = text[text.index(after: mark)...]
            text = text[..<mark]
        }
        var result = withoutUserInfo(text)
        if let query {
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { !isSecret($0) }
            if !kept.isEmpty { result += "?" + kept.joined(separator: "&") }
        }
        return result + fragment
    }

    /// Whether `url` holds anything `redacted` removes.
    public static func hasSecrets(_ url: String) -> Bool {
        redacted(url) != url
    }

    private static func withoutUserInfo(_ text: Substring) -> String {
        guard let separator = text.range(of: "://") else { return String(text) }
        let authorityStart = separator.upperBound
        let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") else { return String(text) }
        return String(text[..<authorityStart] + text[text.index(after: at)...])
    }

    private static func isSecret(_ parameter: Substring) -> Bool {
        let rawName = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let name = (rawName.removingPercentEncodingSafely ?? String(rawName)).lowercased()
        return secretNames.contains(name) || secretNameParts.contains { name.contains($0) }
    }
}

private extension Substring {
    /// Percent-decoding without Foundation: `%5F` → `_`; nil when an escape is malformed.
    var removingPercentEncodingSafely: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
