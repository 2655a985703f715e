import PMImaging
import PMLoading

/// Media URLs come from strangers: only http and https are fetched. A `file://` URL in a feed
/// would otherwise copy local files (say /etc/passwd) into a served cache.
///
/// The scheme is the loader's (`urlScheme`): the check runs for every image a sync lists, and
/// Foundation's `contains` and `split` on a String went through NSString's search each time.
enum MediaURLPolicy {
    static func check(_ url: String) throws(MediaFailure) {
        let scheme = urlScheme(url)
        guard scheme != "http", scheme != "https" else { return }
        // A URL without a colon has no scheme: the refusal names what it holds instead.
        let named = url.utf8.contains(UInt8(ascii: ":")) ? scheme : url.lowercased()
        throw MediaFailure(reason: "unsupported URL scheme \"\(named)\": only http and https media URLs are fetched")
    }
}

/// Decides whether a response can hold an image at all, before any decoding.
enum ResponseCheck {
    static func validate(_ response: HTTPResponse) throws(MediaFailure) {
        guard response.status == 200 else {
            let reason = HTTPStatus.reason(response.status)
            throw MediaFailure(reason: "HTTP \(response.status)\(reason.isEmpty ? "" : " " + reason)")
        }
        guard !response.body.isEmpty else {
            throw MediaFailure(reason: "empty response body")
        }
        if let declared = response.headers["content-length"].flatMap({ Int($0) }),
           response.headers["content-encoding"] == nil, declared != response.body.count {
            throw MediaFailure(reason: "truncated body: got \(response.body.count) of \(declared) bytes")
        }
    }
}

/// Describes bytes that are not an image, so the error says what was received instead, without
/// quoting them: the reason goes into the published manifest, and a server (or a redirect into a
/// private network) may answer with secrets.
enum ContentSniffer {
    static func describeNonImage(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(64)
        let text = String(decoding: head, as: UTF8.self).lowercased()
        if text.contains("<!doctype html") || text.contains("<html") {
            return "not an image: received an HTML page"
        }
        let printable = head.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return "not a \(ImageFormat.listed) image (received \(bytes.count) byte\(bytes.count == 1 ? "" : "s") of \(printable ? "text" : "unknown binary data"))"
    }
}
