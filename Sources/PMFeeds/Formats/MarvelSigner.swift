import Foundation
import PMSupport

/// Marvel's server-side authentication: every `/v1/public/` request carries `ts`, `apikey` and
/// `hash = md5(ts + privateKey + publicKey)` (https://developer.marvel.com/documentation/authorization).
public enum MarvelSigner {
    /// Adds ts, apikey, hash=md5(ts+private+public) to URLs whose path starts with /v1/public/ (any host);
    /// replaces existing ones; other URLs unchanged. The private key goes into the digest only, never the URL.
    public static func sign(_ url: URL, publicKey: String, privateKey: String, timestamp: String) -> URL {
        guard url.path.hasPrefix("/v1/public/") else { return url }
        let hash = Digest.md5Hex(timestamp + privateKey + publicKey)
        return FeedPaging.replacingQuery(of: url, with: [("ts", timestamp), ("apikey", publicKey), ("hash", hash)]) ?? url
    }
}
