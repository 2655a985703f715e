/// Index side of prune and repair: the rows the eviction policy reads, and dropping rows of
/// files that are about to be deleted (or are already gone) in one transaction.
extension PhotoIndex {
    /// Paths of the dropped rows' files, and the feeds whose items changed status.
    public struct DroppedRows: Sendable, Equatable {
        public var paths: [String] = []
        public var feedKeys: Set<String> = []
    }

    /// Every item's image with the time its feed last listed it. One row per item, repeats
    /// included: a plain scan is several times faster than grouping, and the policy takes the max.
    public func blobReferences() throws(IndexError) -> [BlobReference] {
        let query = try connection.statement("""
            SELECT i.sha256, f.last_sync FROM items i JOIN feeds f ON f.key = i.feed_key WHERE i.sha256 IS NOT NULL
            """)
        var result: [BlobReference] = []
        while try query.step() {
            result.append(BlobReference(sha256: query.text(0) ?? "", listedAt: query.double(1)))
        }
        return result
    }

    /// Deletes the rows of the given originals and thumbnails (`sizes` nil: every size of that
    /// image), forgets media URLs whose image has no file left, and re-derives the status of the
    /// items naming those images. Call it *before* deleting the files: a crash in between then
    /// leaves orphan files (garbage), never rows or manifests naming missing files (damage).
    public func dropRows(originals: [String], thumbnails: [(sha256: String, size: String?)]) throws(IndexError) -> DroppedRows {
        try connection.transaction { () throws(IndexError) -> DroppedRows in
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS drop_originals(sha256 TEXT PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS drop_thumbnails(sha256 TEXT NOT NULL, size TEXT NOT NULL,
                    PRIMARY KEY(sha256, size));
                CREATE TEMP TABLE IF NOT EXISTS dropped_images(sha256 TEXT PRIMARY KEY);
                DELETE FROM temp.drop_originals; DELETE FROM temp.drop_thumbnails; DELETE FROM temp.dropped_images;
                """)
            for sha256 in originals {
                try connection.statement("INSERT OR IGNORE INTO temp.drop_originals VALUES(?)").bind(.text(sha256)).run()
            }
            for (sha256, size) in thumbnails {
                if let size {
                    try connection.statement("INSERT OR IGNORE INTO temp.drop_thumbnails VALUES(?,?)")
                        .bind(.text(sha256), .text(size)).run()
                } else {
                    try connection.statement("""
                        INSERT OR IGNORE INTO temp.drop_thumbnails SELECT original_sha256, size FROM thumbnails
                        WHERE original_sha256 = ?
                        """).bind(.text(sha256)).run()
                }
            }
            try connection.execute("""
                INSERT OR IGNORE INTO temp.dropped_images SELECT sha256 FROM temp.drop_originals;
                INSERT OR IGNORE INTO temp.dropped_images SELECT sha256 FROM temp.drop_thumbnails;
                """)
            var dropped = DroppedRows()
            let paths = try connection.statement("""
                SELECT path FROM originals WHERE sha256 IN (SELECT sha256 FROM temp.drop_originals)
                UNION ALL
                SELECT t.path FROM thumbnails t JOIN temp.drop_thumbnails d ON d.sha256 = t.original_sha256 AND d.size = t.size
                """)
            while try paths.step() { if let path = paths.text(0) { dropped.paths.append(path) } }
            let feeds = try connection.statement(
                "SELECT DISTINCT feed_key FROM items WHERE sha256 IN (SELECT sha256 FROM temp.dropped_images)")
            while try feeds.step() { if let key = feeds.text(0) { dropped.feedKeys.insert(key) } }
            try connection.execute("""
                DELETE FROM originals WHERE sha256 IN (SELECT sha256 FROM temp.drop_originals);
                DELETE FROM thumbnails WHERE (original_sha256, size) IN (SELECT sha256, size FROM temp.drop_thumbnails);
                DELETE FROM resources WHERE sha256 IN (SELECT sha256 FROM temp.dropped_images)
                    AND NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = resources.sha256)
                    AND NOT EXISTS (SELECT 1 FROM thumbnails t WHERE t.original_sha256 = resources.sha256);
                UPDATE items SET status = \(Self.statusFromFiles)
                    WHERE sha256 IN (SELECT sha256 FROM temp.dropped_images) AND status IN \(Self.derivedStatuses);
                """)
            return dropped
        }
    }

    /// An item's status from the files its image still has: no thumbnail left is `evicted`,
    /// thumbnails without the original is `evicted-original`, both is `ok`.
    static let statusFromFiles = """
        CASE
            WHEN NOT EXISTS (SELECT 1 FROM thumbnails t WHERE t.original_sha256 = items.sha256) THEN '\(ItemStatus.evicted)'
            WHEN NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = items.sha256) THEN '\(ItemStatus.evictedOriginal)'
            ELSE '\(ItemStatus.ok)'
        END
        """

    static var derivedStatuses: String {
        "(" + ItemStatus.derivedFromFiles.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }

    /// Folds the write-ahead log into the database file and empties it, so the disk use a prune
    /// measures afterwards is what stays. Best effort: a reader holding an old snapshot keeps it.
    public func checkpoint() {
        connection.resetStatements()
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

extension PhotoIndex {
    /// Re-derives every image item's status from the files the index holds, for a repair that
    /// cannot trust the statuses it found.
    public func rederiveItemStatuses() throws(IndexError) {
        try connection.execute("""
            UPDATE items SET status = \(Self.statusFromFiles)
                WHERE sha256 IS NOT NULL AND status IN \(Self.derivedStatuses);
            """)
    }
}
