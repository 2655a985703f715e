import Foundation

/// An item's images in the order they are found, each picture once: a URL that names a picture
/// already listed, at the same or another size (`PictureIdentity`), is left out, so the first
/// source found keeps it.
struct ItemMedia {
    private(set) var media: [FeedMedia] = []
    /// `PictureIdentity.key`s are worked out only for URLs that share a host, since only those
    /// can name one picture, and most items' images are alone or on hosts of their own: the one
    /// URL seen so far on each host (by `PictureIdentity.hostHash`) waits here without a key.
    private var alone: [Int: String] = [:]
    /// The hosts seen more than once, whose URLs have their keys in `keys`.
    private var shared: Set<Int> = []
    private var keys: Set<String> = []

    /// Only http(s) URLs are images to mirror: a `data:` URI is inline, and `file:`, `gs:` or a
    /// reference that did not resolve cannot be fetched (and a feed must never make us read a local file).
    mutating func add(_ url: String?, _ source: FeedMedia.Source) {
        guard let url = FeedText.nonBlank(url), Self.isFetchable(url) else { return }
        let host = PictureIdentity.hostHash(url)
        if let first = alone.removeValue(forKey: host) {
            keys.insert(PictureIdentity.key(first))
            shared.insert(host)
        }
        if shared.contains(host) {
            guard keys.insert(PictureIdentity.key(url)).inserted else { return }
        } else {
            alone[host] = url
        }
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
