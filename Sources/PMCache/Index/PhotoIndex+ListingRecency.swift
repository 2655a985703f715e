/// While a feed lists an image, the feed's `last_sync` makes the image that recent (prune reads
/// both, `EvictionPolicy`), so a sync that reuses a whole unchanged feed need not write every
/// original's `last_access`: at 100 000 images that was a page write per row, a quarter of a
/// re-sync. The recency is carried into the originals only when the listing ends: before a
/// feed's rows are replaced or dropped they are noted (`noteListing`), and once the new rows are
/// in, each original the old rows named and the new ones do not is brought up to the feed's last
/// sync (`carryListingRecency`), as a touch at that sync would have left it. Only the images that
/// leave are written: a feed whose document changed keeps most of its items.
extension PhotoIndex {
    /// The originals a feed's rows name: its items', their further images', the feed's own image
    /// (`?1` is the feed's key), and by their URLs those of items not settled yet.
    private static let namedOriginals = """
        SELECT sha256 FROM items WHERE feed_key = ?1 AND sha256 IS NOT NULL
        UNION SELECT sha256 FROM item_media WHERE feed_key = ?1 AND sha256 IS NOT NULL
        UNION SELECT image_sha256 FROM feeds WHERE key = ?1 AND image_sha256 IS NOT NULL
        UNION SELECT r.sha256 FROM items i JOIN resources r ON r.url = i.media_url
            WHERE i.feed_key = ?1 AND i.sha256 IS NULL
        UNION SELECT r.sha256 FROM item_media m JOIN resources r ON r.url = m.url
            WHERE m.feed_key = ?1 AND m.sha256 IS NULL
        """

    /// Notes the originals `feedKey`'s rows name, before they are replaced or dropped, inside the
    /// caller's transaction; returns the feed's last sync (0 for a feed new to the cache).
    func noteListing(feedKey: String) throws(IndexError) -> Double {
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS listing_left(sha256 TEXT PRIMARY KEY) WITHOUT ROWID;
            DELETE FROM temp.listing_left;
            """)
        try connection.statement("INSERT OR IGNORE INTO temp.listing_left \(Self.namedOriginals)")
            .bind(.text(feedKey)).run()
        let query = try connection.statement("SELECT last_sync FROM feeds WHERE key = ?")
        try query.bind(.text(feedKey))
        let lastSync = try query.step() ? query.double(0) : 0
        try query.run()
        return lastSync
    }

    /// Brings each original `noteListing` noted that `feedKey`'s rows no longer name up to
    /// `lastSync`, the sync that last listed it. Inside the same transaction, once the new rows
    /// are in.
    func carryListingRecency(feedKey: String, lastSync: Double) throws(IndexError) {
        guard lastSync > 0 else { return }
        try connection.statement("""
            UPDATE originals SET last_access = ?2
            WHERE last_access < ?2 AND sha256 IN (SELECT sha256 FROM temp.listing_left EXCEPT \(Self.namedOriginals))
            """).bind(.text(feedKey), .real(lastSync)).run()
    }
}
