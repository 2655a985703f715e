import Foundation
import PMSupport

/// Marvel's server-side authentication: every `/v1/public/` request carries `ts`, `apikey` and
/// `hash = md5(ts + privateKey + publicKey)` (https://developer.marvel.com/documentation/authorization).
public enum MarvelSigner {
    /// Whether Marvel expects `url` signed: its path starts with /v1/public/, on any host, so
    /// that a local mirror or test server of the API is signed like the gateway.
    public static func needsSignature(_ url: URL) -> Bool {
        url.path.hasPrefix("/v1/public/")
    }

    /// Adds ts, apikey, hash=md5(ts+private+public) to URLs that `needsSignature`; replaces existing
    /// ones; other URLs unchanged. The private key goes into the digest only, never the URL.
    public static func sign(_ url: URL, publicKey: String, privateKey: String, timestamp: String) -> URL {
        guard needsSignature(url) else { return url }
        let hash = Digest.md5Hex(timestamp + privateKey + publicKey)
        return FeedPaging.replacingQuery(of: url, with: [("ts", timestamp), ("apikey", publicKey), ("hash", hash)]) ?? url
    }

    public static func sign(_ url: URL, keys: MarvelKeys, timestamp: String) -> URL {
        sign(url, publicKey: keys.publicKey, privateKey: keys.privateKey, timestamp: timestamp)
    }
}
