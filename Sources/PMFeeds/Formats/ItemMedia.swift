import Foundation

/// An item's images in the order they are found, each URL once (the first source found keeps it).
struct ItemMedia {
    private(set) var media: [FeedMedia] = []
    private var seen: Set<String> = []

    /// Only http(s) URLs are images to mirror: a `data:` URI is inline, and `file:`, `gs:` or a
    /// reference that did not resolve cannot be fetched (and a feed must never make us read a local file).
    mutating func add(_ url: String?, _ source: FeedMedia.Source) {
        guard let url = FeedText.nonBlank(url), Self.isFetchable(url), seen.insert(url).inserted else { return }
        media.append(FeedMedia(url: url, source: source))
    }

    static func isFetchable(_ url: String) -> Bool {
        let scheme = url.utf8.prefix(8).prefix { $0 != UInt8(ascii: ":") }
        guard scheme.count < 8 else { return false }
        let lowered = String(decoding: scheme, as: UTF8.self).lowercased()
        return (lowered == "http" || lowered == "https") && url.utf8.count > scheme.count + 3
    }

    mutating func add(_ urls: [String], _ source: FeedMedia.Source) {
        for url in urls { add(url, source) }
    }

    /// `references` resolved against `base`; what does not resolve is kept as written.
    static func resolved(_ references: [String], against base: URL?) -> [String] {
        references.map { reference in
            let trimmed = FeedText.trimmingWhitespacesAndNewlines(reference)
            return URL(string: trimmed, relativeTo: base)?.absoluteString ?? trimmed
        }
    }
}
