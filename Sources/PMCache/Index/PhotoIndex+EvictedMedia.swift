/// A listed image whose original a prune evicted is known by its item's row alone
/// (`items.media_url` and `sha256`; `item_media`'s; a feed's own `image_url`), not by a
/// `resources` row: after a prune that evicts most originals, a row per evicted URL would be a
/// fifth of the index. A sync gathers a feed's evicted URLs into a temp table before it replaces
/// the feed's rows, and its lookups read that table where `resources` has no row, so that a
/// plain sync leaves such an image evicted (`MediaPipeline.keepEvicted`) instead of taking it
/// for a new one. An image lost to damage is not evicted: `forgetMediaURLs` clears its items'
/// hashes as well, and the next sync fetches it again.
extension PhotoIndex {
    /// The connection's own table (temp: never written to the file), made when it opens.
    static let evictedMediaTable = """
        CREATE TEMP TABLE IF NOT EXISTS evicted_media(
            url TEXT PRIMARY KEY,
            sha256 TEXT NOT NULL,
            last_access REAL NOT NULL) WITHOUT ROWID;
        """

    /// Gathers the URLs `feedKey`'s rows name with a hash but `resources` does not know: its
    /// evicted images. Their `last_access` starts at 0, before any sync's start, until a touch.
    /// Once per feed while nothing can have evicted more: a sync gathers a feed that answered
    /// 304 when it stages it and again when it reuses it whole, each a scan of its 2000 rows.
    func gatherEvictedMedia(feedKey: String) throws(IndexError) {
        // Another connection's commit (a prune in another process) changes `data_version`; this
        // connection's own evictions clear the memo (`forgetGatheredEvictions`).
        let version = try dataVersion()
        if version != evictedGathered.dataVersion { evictedGathered = EvictedGathering(dataVersion: version) }
        guard evictedGathered.feeds.insert(feedKey).inserted else { return }
        try connection.statement("""
            INSERT OR IGNORE INTO temp.evicted_media(url, sha256, last_access)
            SELECT s.url, s.sha256, 0 FROM (
                SELECT media_url AS url, sha256 FROM items
                    WHERE feed_key = ?1 AND media_url IS NOT NULL AND sha256 IS NOT NULL
                UNION ALL SELECT url, sha256 FROM item_media WHERE feed_key = ?1 AND sha256 IS NOT NULL
                UNION ALL SELECT image_url, image_sha256 FROM feeds
                    WHERE key = ?1 AND image_url IS NOT NULL AND image_sha256 IS NOT NULL) s
            WHERE NOT EXISTS (SELECT 1 FROM resources r WHERE r.url = s.url)
            """).bind(.text(feedKey)).run()
    }

    /// After this connection dropped rows: each feed is gathered again.
    func forgetGatheredEvictions() {
        evictedGathered = EvictedGathering()
    }

    private func dataVersion() throws(IndexError) -> Int64 {
        let query = try connection.statement("PRAGMA data_version")
        defer { try? query.run() }
        return try query.step() ? Int64(query.int(0)) : -1
    }

    /// `gatherEvictedMedia` for a caller outside the index's module (the sync, before it decides
    /// a feed's URLs one by one).
    public func gatherEvictedMedia(ofFeed feedKey: String) throws(IndexError) {
        try gatherEvictedMedia(feedKey: feedKey)
    }
}

extension PhotoIndex {
    /// What the cache holds for a media URL `media(for:)` does not know: the image the rows of
    /// the feeds that list it name by it, evicted. A scan of the items (no index by URL), for a
    /// lookup outside a sync; nil for a URL nothing lists or whose image was lost.
    public func listedMedia(for url: String) throws(IndexError) -> CachedMedia? {
        let query = try connection.statement("""
            SELECT sha256 FROM items WHERE media_url = ?1 AND sha256 IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM resources WHERE url = ?1)
            UNION ALL SELECT sha256 FROM item_media WHERE url = ?1 AND sha256 IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM resources WHERE url = ?1)
            UNION ALL SELECT image_sha256 FROM feeds WHERE image_url = ?1 AND image_sha256 IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM resources WHERE url = ?1)
            LIMIT 1
            """)
        try query.bind(.text(url))
        guard try query.step(), let sha256 = query.text(0) else { return nil }
        _ = try query.step()
        return CachedMedia(sha256: sha256, original: try original(sha256: sha256), thumbnails: try thumbnails(of: sha256))
    }
}

/// Which feeds `temp.evicted_media` has gathered, as of which `PRAGMA data_version`.
struct EvictedGathering: Sendable {
    var dataVersion: Int64 = -1
    var feeds: Set<String> = []
}
