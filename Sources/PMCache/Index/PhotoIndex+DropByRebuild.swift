/// The large drop of `dropRows`: when a prune takes a quarter or more of the originals, the
/// tables are rebuilt from the rows they keep instead of deleting row by row.
///
/// Deleting a row updates the table and each of its indexes (an original's hash and path, a
/// URL's text and hash) at a random place, so tens of thousands of deletes touch most index
/// pages several times each; and `repack` would then rebuild the tables anyway, since they lost
/// that many rows. Copying out what stays, emptying the table (SQLite clears a table and its
/// indexes in one pass when the `DELETE` has no `WHERE`) and writing the rows back costs a scan
/// and the kept rows, and leaves the tables packed.
extension PhotoIndex {
    /// Whether dropping `count` originals pays for rebuilding their tables: the threshold at
    /// which `noteDeleted` would have them repacked after deleting.
    func rebuildPays(droppingOriginals count: Int) throws(IndexError) -> Bool {
        guard count > 0 else { return false }
        let rows = try connection.statement("SELECT count(*) FROM originals")
        let total = try rows.step() ? rows.int(0) : 0
        try rows.run()
        return count * 4 >= total
    }

    /// Drops the rows of `doomed`'s originals and the rows of their URLs, but those of items not
    /// settled yet (`temp.unsettled_urls`), by rebuilding both tables; returns the feeds showing
    /// them when `findFeeds`. Runs inside `dropRows`'s transaction.
    func rebuildWithout(_ doomed: HashMembership, findFeeds: Bool) throws(IndexError) -> Set<String> {
        try connection.withMembership(named: "pm_doomed", doomed) { () throws(IndexError) -> Set<String> in
            var feedKeys = Set<String>()
            if findFeeds {
                let feeds = try connection.statement("""
                    SELECT DISTINCT feed_key FROM items WHERE pm_doomed(sha256)
                    UNION SELECT feed_key FROM item_media WHERE pm_doomed(sha256)
                    UNION SELECT key FROM feeds WHERE pm_doomed(image_sha256)
                    """)
                while try feeds.step() { if let key = feeds.text(0) { feedKeys.insert(key) } }
            }
            try rebuild("originals", keeping: "NOT pm_doomed(sha256)")
            // Every doomed image lost its original just now: its URLs go unless an unsettled
            // item still needs them to find the image.
            try rebuild("resources", keeping: "NOT pm_doomed(sha256) OR url IN (SELECT url FROM temp.unsettled_urls)")
            return feedKeys
        }
    }

    /// Rewrites a rowid table with only the rows `condition` keeps, in their order, and its
    /// indexes packed (`repack` keeps them all). No other table refers to `originals` or `resources` by rowid or by a
    /// foreign key (which would stop SQLite from clearing the table at once). The kept rows wait
    /// in a table of the index file itself, not of the in-memory temp schema: that one never
    /// gives its pages back, and would hold them through the rest of the prune. The transaction
    /// around it means no other connection ever sees that table.
    func rebuild(_ table: String, keeping condition: String) throws(IndexError) {
        try connection.execute("""
            CREATE TABLE main.rebuild_kept AS SELECT * FROM \(table) WHERE \(condition) ORDER BY rowid;
            DELETE FROM \(table);
            INSERT INTO \(table) SELECT * FROM main.rebuild_kept;
            DROP TABLE main.rebuild_kept;
            REINDEX \(table);
            """)
    }
}
