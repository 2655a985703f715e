/// While a feed lists an image, the feed's `last_sync` makes the image that recent (prune reads
/// both, `EvictionPolicy`), so a sync that reuses a whole unchanged feed need not write every
/// original's `last_access`: at 100 000 images that was a page write per row, a quarter of a
/// re-sync. The recency is carried into the originals only when the listing ends: before a
/// feed's rows are replaced or dropped, each original they name is brought up to the feed's
/// `last_sync`, as a touch at that sync would have left it.
extension PhotoIndex {
    /// Brings the originals `feedKey`'s rows name (items, further images, the feed's own image,
    /// and the URLs of items not settled yet) up to its `last_sync`. Inside the caller's transaction,
    /// before the rows go.
    func carryListingRecency(feedKey: String) throws(IndexError) {
        try connection.statement("""
            UPDATE originals SET last_access = (SELECT last_sync FROM feeds WHERE key = ?1)
            WHERE last_access < (SELECT last_sync FROM feeds WHERE key = ?1) AND sha256 IN (
                SELECT sha256 FROM items WHERE feed_key = ?1 AND sha256 IS NOT NULL
                UNION ALL SELECT sha256 FROM item_media WHERE feed_key = ?1 AND sha256 IS NOT NULL
                UNION ALL SELECT image_sha256 FROM feeds WHERE key = ?1 AND image_sha256 IS NOT NULL
                UNION ALL SELECT r.sha256 FROM items i JOIN resources r ON r.url = i.media_url
                    WHERE i.feed_key = ?1 AND i.sha256 IS NULL
                UNION ALL SELECT r.sha256 FROM item_media m JOIN resources r ON r.url = m.url
                    WHERE m.feed_key = ?1 AND m.sha256 IS NULL)
            """).bind(.text(feedKey)).run()
    }
}
