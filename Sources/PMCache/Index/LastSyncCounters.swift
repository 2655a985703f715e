import Foundation

/// What the last sync did with its media URLs, kept in `meta` for `photomirror stats`.
public struct LastSyncCounters: Sendable, Codable, Equatable {
    /// When it finished mirroring, seconds since 1970.
    public var at: Double
    /// Distinct media URLs the feeds named.
    public var media: Int
    /// Fetched with a body (new images, changed images on `--revalidate`).
    public var downloaded: Int
    /// Served from the cache without a body: no request at all, or a 304 on `--revalidate`.
    public var reused: Int
    public var failed: Int

    public init(at: Double, media: Int, downloaded: Int, reused: Int, failed: Int) {
        self.at = at; self.media = media; self.downloaded = downloaded; self.reused = reused; self.failed = failed
    }

    /// Share of the mirrored images the cache already had; nil when nothing was mirrored.
    public var hitRatio: Double? {
        let served = downloaded + reused
        return served == 0 ? nil : Double(reused) / Double(served)
    }

    public func encoded() -> String {
        (try? String(decoding: JSONEncoder().encode(self), as: UTF8.self)) ?? "{}"
    }

    public static func decode(_ text: String?) -> LastSyncCounters? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(LastSyncCounters.self, from: Data(text.utf8))
    }
}
