/// A feed whose document did not change (a 304) and whose images the cache holds whole, reused in
/// one transaction: the checks and touches a sync makes URL by URL, made by SQLite over the
/// feed's rows at once.
extension PhotoIndex {
    /// When every media URL the feed's rows name (its items' images and `imageURL`, its own) names
    /// an image whose original and a thumbnail of each of `sizes` are stored, or (unless
    /// `refetchEvicted`) one a prune evicted, its original or all of it (`MediaPipeline.keepEvicted`), marks each URL
    /// used at `time` and returns how many of the URLs no earlier step of this sync
    /// (which started at `syncStart`) had used. Nil, with nothing written, when any URL is unknown
    /// or its image not whole: the sync then does them one by one. The originals are left as they
    /// are: the feed's `last_sync` keeps them as recent while it lists them
    /// (PhotoIndex+ListingRecency.swift).
    public func reuseWholeFeed(feedKey: String, imageURL: String?, sizes: [String], at time: Double,
                               syncStart: Double, refetchEvicted: Bool = false) throws(IndexError) -> Int? {
        try connection.transaction { () throws(IndexError) -> Int? in
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS whole_feed_urls(url TEXT PRIMARY KEY) WITHOUT ROWID;
                DELETE FROM temp.whole_feed_urls;
                """)
            try gatherEvictedMedia(feedKey: feedKey)
            try connection.statement("""
                INSERT OR IGNORE INTO temp.whole_feed_urls
                SELECT media_url FROM items WHERE feed_key = ?1 AND media_url IS NOT NULL
                UNION ALL SELECT url FROM item_media WHERE feed_key = ?1
                UNION ALL SELECT ?2 WHERE ?2 IS NOT NULL
                """).bind(.text(feedKey), .optional(imageURL)).run()
            let wanted = JSONStringList.encode(sizes)
            // A CASE, not one boolean expression: SQLite evaluates only the branch taken, so an
            // image with its original (nearly every one) costs two lookups, not three.
            let sized = "(SELECT count(*) FROM thumbnails t WHERE t.original_sha256 = k.sha256 AND t.size IN (SELECT value FROM json_each(?1)))"
            let check = try connection.statement("""
                SELECT sum(k.last_access < ?3), sum(CASE
                    WHEN k.sha256 IS NULL THEN 1
                    WHEN EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = k.sha256) THEN \(sized) <> ?2
                    WHEN ?4 THEN 1
                    ELSE \(sized) <> ?2 AND EXISTS (SELECT 1 FROM thumbnails t WHERE t.original_sha256 = k.sha256) END)
                FROM (SELECT coalesce(r.sha256, e.sha256) AS sha256, coalesce(r.last_access, e.last_access) AS last_access
                    FROM temp.whole_feed_urls u
                    LEFT JOIN resources r ON r.url = u.url AND r.sha256 <> ''
                    LEFT JOIN temp.evicted_media e ON e.url = u.url AND r.url IS NULL) k
                """)
            try check.bind(.text(wanted), .integer(Int64(Set(sizes).count)), .real(syncStart), .integer(refetchEvicted ? 1 : 0))
            guard try check.step() else { return nil }
            let (fresh, missing) = (check.int(0), check.int(1))
            _ = try check.step()
            guard missing == 0 else { return nil }
            try connection.statement("""
                UPDATE resources SET last_access = ?1 WHERE url IN (SELECT url FROM temp.whole_feed_urls)
                """).bind(.real(time)).run()
            try connection.statement("""
                UPDATE temp.evicted_media SET last_access = ?1 WHERE url IN (SELECT url FROM temp.whole_feed_urls)
                """).bind(.real(time)).run()
            return fresh
        }
    }
}
