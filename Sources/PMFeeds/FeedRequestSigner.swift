import Foundation

/// Knows which feed requests an API wants signed and signs them, so that fetching only asks for
/// the URL to send. Signing is per request, never stored: the fetcher keeps the unsigned URL for
/// paging, messages and the cache, so no signature or key reaches them.
public struct FeedRequestSigner: Sendable {
    /// Nil when no Marvel keys were given: its URLs then go out unsigned, and Marvel's error
    /// envelope says why.
    public var marvelKeys: MarvelKeys?

    public init(marvelKeys: MarvelKeys? = nil) {
        self.marvelKeys = marvelKeys
    }

    /// The URL to request for `url` at `date`: signed when an API whose keys we hold claims it,
    /// otherwise `url` itself. Only http(s) URLs are signed, since nothing else reaches a server.
    public func requestURL(for url: URL, at date: Date) -> URL {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return url }
        if let marvelKeys, MarvelSigner.needsSignature(url) {
            return MarvelSigner.sign(url, keys: marvelKeys, timestamp: String(Int(date.timeIntervalSince1970)))
        }
        return url
    }
}
