/// Index side of prune and repair: the rows the eviction policy reads, and dropping rows of
/// files that are about to be deleted (or are already gone) in one transaction.
extension PhotoIndex {
    /// The feeds with items naming the dropped images: whose manifests and pages to rewrite.
    public struct DroppedRows: Sendable, Equatable {
        public var feedKeys: Set<String> = []
    }

    /// What the eviction policy decides over, in one actor call: every original and thumbnail
    /// row (image, path, last access), unsized (`EvictionImages.measure`), and every item's
    /// image with the time its feed last listed it. References come one per item, repeats
    /// included: a plain scan is several times faster than grouping, and the images take the
    /// max. Hashes and paths are packed straight from SQLite's text, with no String for each of
    /// the 300 000 rows. The feeds of `listing` count as listing their items at `time` or later:
    /// a sync's feeds, whose rows it has staged and not yet marked as synced.
    public func evictionImages(listing: Set<String> = [], at time: Double = 0) throws(IndexError) -> EvictionImages {
        var images = try storedImages()
        images.add(try listingReferences(listing: listing, at: time))
        return images
    }

    /// The first part of `evictionImages`: every original and thumbnail row, without the items
    /// that list them (`listingReferences`), which another connection may read meanwhile.
    public func storedImages() throws(IndexError) -> EvictionImages {
        var images = EvictionImages()
        images.reserveCapacity(try rowEstimate("FROM originals"))
        let originals = try connection.statement("SELECT sha256, path, last_access FROM originals")
        while try originals.step() {
            images.addOriginal(originals.withText(0, ImageHash.init(utf8:)) ?? .text(""),
                               path: originals.withText(1, CachePath.init(utf8:)) ?? .text(""), lastAccess: originals.double(2))
        }
        let thumbnails = try connection.statement("SELECT original_sha256, size, last_access FROM thumbnails")
        while try thumbnails.step() {
            images.addThumbnail(thumbnails.withText(0, ImageHash.init(utf8:)) ?? .text(""), size: thumbnails.text(1) ?? "",
                                lastAccess: thumbnails.double(2))
        }
        return images
    }

    /// The second part of `evictionImages`: each item's image with when its feed listed it and
    /// the feed whose pages show it, in columns (about 50 bytes an item) until they are added.
    public func listingReferences(listing: Set<String> = [], at time: Double = 0) throws(IndexError) -> ListingReferences {
        var references = ListingReferences()
        references.reserveCapacity(try rowEstimate("FROM items"))
        try forEachReference(listing: listing, at: time, feedNames: { references.feedKeys = $0 }) { sha256, listedAt, feed in
            references.append(sha256, listedAt: listedAt, shownBy: feed)
        }
        return references
    }

    /// Every item's image (and every feed's own image) with the time its feed last listed it,
    /// one per item, repeats included, as `evictionImages` counts them: `listingReferences` as
    /// a list.
    public func imageReferences(listing: Set<String> = [], at time: Double = 0) throws(IndexError) -> [BlobReference] {
        try listingReferences(listing: listing, at: time).blobReferences
    }

    // Each item's feed is looked up in a map of the ~100 feeds, keyed by the feed key's 16 hex
    // digits as one word: cheaper than SQLite joining each of 100 000 items to its feed's row.
    // `body` gets the image, when its feed listed it, and the feed's number in the names given to
    // `feedNames` when the feed's pages show the image (nil for an item not settled yet).
    private func forEachReference(listing: Set<String>, at time: Double, feedNames: ([String]) -> Void,
                                  _ body: (ImageHash, Double, Int32?) -> Void) throws(IndexError)
    {
        // A feed's number is its place in `names`; the listing's feeds may not have a row yet.
        var packedFeeds: [UInt64: (listedAt: Double, number: Int32)] = [:], otherFeeds: [String: (listedAt: Double, number: Int32)] = [:]
        var names: [String] = []
        func note(_ key: String, listedAt: Double) {
            var utf8 = key
            if let packed = utf8.withUTF8({ PackedHash.word(hex: $0) }) {
                if let found = packedFeeds[packed] {
                    packedFeeds[packed]?.listedAt = max(found.listedAt, listedAt)
                    return
                }
                packedFeeds[packed] = (listedAt, Int32(names.count))
            } else {
                if let found = otherFeeds[key] {
                    otherFeeds[key]?.listedAt = max(found.listedAt, listedAt)
                    return
                }
                otherFeeds[key] = (listedAt, Int32(names.count))
            }
            names.append(key)
        }
        let feeds = try connection.statement("SELECT key, last_sync FROM feeds")
        while try feeds.step() {
            if let key = feeds.text(0) { note(key, listedAt: feeds.double(1)) }
        }
        for key in listing { note(key, listedAt: time) }
        feedNames(names)
        // An item's further images and a feed's own image are used as the feed's items are.
        // Items without a hash are a feed's staged rows whose sync stopped before it settled
        // them (or images it could not fetch): the images stored for them so far are found by
        // their URLs. They are pending in that feed, not listed by none, and not on its pages.
        let items = try connection.statement("""
            SELECT sha256, feed_key, 1 FROM items WHERE sha256 IS NOT NULL
            UNION ALL SELECT sha256, feed_key, 1 FROM item_media WHERE sha256 IS NOT NULL
            UNION ALL SELECT image_sha256, key, 1 FROM feeds WHERE image_sha256 IS NOT NULL
            UNION ALL SELECT r.sha256, i.feed_key, 0 FROM items i JOIN resources r ON r.url = i.media_url
                WHERE i.sha256 IS NULL
            UNION ALL SELECT r.sha256, m.feed_key, 0 FROM item_media m JOIN resources r ON r.url = m.url
                WHERE m.sha256 IS NULL
            """)
        while try items.step() {
            let feed: (listedAt: Double, number: Int32)?
            if let key = items.withText(1, PackedHash.word(hex:)) ?? nil {
                feed = packedFeeds[key]
            } else {
                feed = items.text(1).flatMap { otherFeeds[$0] }
            }
            guard let feed else { continue }
            body(items.withText(0, ImageHash.init(utf8:)) ?? .text(""), feed.listedAt, items.int(2) == 1 ? feed.number : nil)
        }
    }

    /// About how many rows the table named after `FROM` in `sql` holds, read off its largest
    /// rowid (no scan): enough to size an array of 100 000 rows once instead of doubling it.
    private func rowEstimate(_ sql: String) throws(IndexError) -> Int {
        guard let table = sql.split(separator: " ").drop(while: { $0 != "FROM" }).dropFirst().first else { return 0 }
        let query = try connection.statement("SELECT max(rowid) FROM \(table)")
        return try query.step() ? min(query.int(0), 10_000_000) : 0
    }

    /// Deletes the rows of the given originals and thumbnails (`size` nil: every size of that
    /// image) and the media URLs of the images left without an original. A listed image's item
    /// keeps its URL and hash, which tell the next sync that the image was evicted, not new
    /// (PhotoIndex+EvictedMedia.swift); only an item not settled yet (no hash) keeps the URL's
    /// row, its one link to the image. Items are not touched: their evicted statuses are derived
    /// when read. Call it *before* deleting the files (the caller
    /// read their paths from the rows under the same lock): a crash in between then leaves orphan
    /// files (garbage), never rows or manifests naming missing files (damage).
    ///
    /// `feedKeys`: the feeds whose pages show the dropped images, when the caller knows them (a
    /// prune, `EvictionImages.feedKeys(showing:)`); nil finds them here.
    public func dropRows(originals: [ImageHash], thumbnails: [(sha256: ImageHash, size: String?)],
                         feedKeys known: Set<String>? = nil) throws(IndexError) -> DroppedRows
    {
        forgetGatheredEvictions()
        return try connection.transaction { () throws(IndexError) -> DroppedRows in
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS drop_originals(sha256 TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS drop_thumbnails(sha256 TEXT NOT NULL, size TEXT NOT NULL,
                    PRIMARY KEY(sha256, size)) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS unsettled_urls(url TEXT PRIMARY KEY) WITHOUT ROWID;
                INSERT OR IGNORE INTO temp.unsettled_urls SELECT media_url FROM items WHERE sha256 IS NULL
                    AND media_url IS NOT NULL UNION SELECT url FROM item_media WHERE sha256 IS NULL;
                """)
            var dropped = DroppedRows(feedKeys: known ?? [])
            var deleted: [String: Int] = [:]
            // A chunk of images at a time: the temp tables hold a few thousand hashes, never the
            // whole plan, which SQLite would keep in memory to the end of the prune.
            func drop(_ table: String) throws(IndexError) {
                if known == nil { try dropped.feedKeys.formUnion(feedsShowing(table, besides: dropped.feedKeys)) }
                let deletes = [
                    ("originals", "DELETE FROM originals WHERE sha256 IN (SELECT sha256 FROM temp.drop_originals)"),
                    ("thumbnails", """
                        DELETE FROM thumbnails WHERE (original_sha256, size) IN (SELECT sha256, size FROM temp.drop_thumbnails)
                        """),
                    // Rows of URLs whose image lost its original here, or earlier.
                    ("resources", """
                        DELETE FROM resources WHERE sha256 IN (SELECT d.sha256 FROM \(table) d
                            WHERE NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = d.sha256))
                        AND url NOT IN (SELECT url FROM temp.unsettled_urls)
                        """),
                ]
                for (name, delete) in deletes {
                    try connection.execute(delete)
                    deleted[name, default: 0] += connection.changes
                }
                try connection.execute("DELETE FROM temp.drop_originals; DELETE FROM temp.drop_thumbnails")
            }
            if try rebuildPays(droppingOriginals: originals.count), let doomed = HashMembership(originals) {
                dropped.feedKeys.formUnion(try rebuildWithout(doomed, findFeeds: known == nil))
            } else {
                try Self.forEachSortedList(originals) { list throws(IndexError) in
                    try connection.statement("INSERT OR IGNORE INTO temp.drop_originals SELECT value FROM json_each(?)")
                        .bind(.text(list)).run()
                    try drop("temp.drop_originals")
                }
            }
            try Self.forEachSortedList(thumbnails.compactMap { $0.size == nil ? $0.sha256 : nil }) { list throws(IndexError) in
                try connection.statement("""
                    INSERT OR IGNORE INTO temp.drop_thumbnails SELECT original_sha256, size FROM thumbnails
                    WHERE original_sha256 IN (SELECT value FROM json_each(?)) ORDER BY 1, 2
                    """).bind(.text(list)).run()
                try drop("temp.drop_thumbnails")
            }
            let sized = thumbnails.compactMap { thumbnail in thumbnail.size.map { (thumbnail.sha256, $0) } }
            if !sized.isEmpty {
                for (sha256, size) in sized {
                    try connection.statement("INSERT OR IGNORE INTO temp.drop_thumbnails VALUES(?,?)")
                        .bind(.text(sha256.description), .text(size)).run()
                }
                try drop("temp.drop_thumbnails")
            }
            try connection.execute("DELETE FROM temp.unsettled_urls")
            try oweDocuments(feedKeys: dropped.feedKeys)
            for (table, count) in deleted.sorted(by: { $0.key < $1.key }) { try noteDeleted(count, from: table) }
            return dropped
        }
    }

    /// The feeds with an item or further image naming an image of `table`, or whose own image it
    /// is, but those in `found`: per feed, its scan stops at its first item naming one, ~100 short
    /// scans rather than a lookup for each of thousands of images.
    private func feedsShowing(_ table: String, besides found: Set<String>) throws(IndexError) -> Set<String> {
        let feeds = try connection.statement("""
            SELECT key FROM feeds f WHERE key NOT IN (SELECT value FROM json_each(?1)) AND (
                EXISTS (SELECT 1 FROM items i WHERE i.feed_key = f.key AND i.sha256 IN (SELECT sha256 FROM \(table)))
                OR EXISTS (SELECT 1 FROM item_media m WHERE m.feed_key = f.key AND m.sha256 IN (SELECT sha256 FROM \(table)))
                OR f.image_sha256 IN (SELECT sha256 FROM \(table)))
            """)
        try feeds.bind(.text(JSONStringList.encode(found.sorted())))
        var keys = Set<String>()
        while try feeds.step() { if let key = feeds.text(0) { keys.insert(key) } }
        return keys
    }

    /// Forgets the media URLs of images whose originals are gone from the storage without an
    /// eviction (a bucket that lost them, damage a repair dropped): unlike an evicted image,
    /// which a plain sync leaves evicted, the next sync downloads them again as new. Their items
    /// keep the hash their remaining thumbnails are shown by, so each URL they name keeps a row
    /// with no hash (`forgottenHash`), which every lookup takes for an unknown URL, until a
    /// download records it again.
    public func forgetMediaURLs(of originals: [ImageHash]) throws(IndexError) {
        guard !originals.isEmpty else { return }
        let list = JSONStringList.encode(originals.sorted())
        forgetGatheredEvictions()
        try connection.transaction { () throws(IndexError) in
            try connection.statement("""
                INSERT INTO resources(url, sha256, fetched_at, last_access)
                SELECT url, '', 0, 0 FROM (
                    SELECT media_url AS url FROM items WHERE sha256 IN (SELECT value FROM json_each(?1)) AND media_url IS NOT NULL
                    UNION SELECT url FROM item_media WHERE sha256 IN (SELECT value FROM json_each(?1))
                    UNION SELECT image_url FROM feeds WHERE image_sha256 IN (SELECT value FROM json_each(?1))
                        AND image_url IS NOT NULL) WHERE true
                ON CONFLICT(url) DO UPDATE SET sha256 = '', etag = NULL, last_modified = NULL, content_type = NULL
                """).bind(.text(list)).run()
            try connection.statement("""
                UPDATE resources SET sha256 = '', etag = NULL, last_modified = NULL, content_type = NULL
                WHERE sha256 IN (SELECT value FROM json_each(?))
                """).bind(.text(list)).run()
        }
    }

    /// The hash of a media URL `forgetMediaURLs` forgot: no image's, read as no row.
    static let forgottenHash = ""

    /// Hashes a JSON array holds at most: the array, its String and SQLite's copy of it are
    /// alive at once, and a prune's plan can name 100 000.
    static let listChunk = 4096

    /// The hashes sorted, as JSON arrays of `listChunk` each, in order. Packed hashes sort as
    /// four words each, several times faster than the enum.
    private static func forEachSortedList(_ hashes: [ImageHash], _ body: (String) throws(IndexError) -> Void) throws(IndexError) {
        var packed: [PackedHash] = []
        packed.reserveCapacity(hashes.count)
        for hash in hashes {
            guard case .packed(let value) = hash else {
                let sorted = hashes.sorted()
                for start in stride(from: 0, to: sorted.count, by: listChunk) {
                    try body(JSONStringList.encode(sorted[start..<min(start + listChunk, sorted.count)]))
                }
                return
            }
            packed.append(value)
        }
        packed.sort()
        for start in stride(from: 0, to: packed.count, by: listChunk) {
            try body(JSONStringList.encode(Array(packed[start..<min(start + listChunk, packed.count)])))
        }
    }

    // Deleting rows frees only the pages that end up empty. The indexes (by hash, by path, by URL)
    // are in random order, and so is `thumbnails`, a table kept in its key's order (WITHOUT ROWID);
    // a table's rows lie in the order they were inserted, which is the order prune evicts them in
    // only across syncs (the images one sync listed are equally recent, and go in hash order). A
    // prune that takes out half of the entries then leaves every page half full, for good: SQLite
    // merges a page only once it is under a third full. What lost a quarter or more of its
    // entries is rebuilt packed (`repack`), and the rest freed.
    private func noteDeleted(_ deleted: Int, from table: String) throws(IndexError) {
        guard deleted > 0 else { return }
        let left = try connection.statement("SELECT count(*) FROM \(table)")
        let remaining = try left.step() ? left.int(0) : 0
        try left.run()
        if deleted * 3 >= remaining { tablesToRepack.insert(table) }
    }

    /// Gives the space deleted rows held back to the file system: tables that lost many rows are
    /// rebuilt packed (`repack`), the free pages move to the end of the file and
    /// are cut off (`releaseFreePages`), then the write-ahead log is folded into the file and
    /// emptied, so the disk use a prune measures afterwards is what stays. Best effort: a reader
    /// holding an old snapshot keeps the log until it ends, and a full disk the rebuild.
    public func checkpoint() {
        connection.resetStatements()
        for table in tablesToRepack.sorted() { try? repack(table) }
        tablesToRepack = []
        releaseFreePages()
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Cuts every free page off the file, as `PRAGMA incremental_vacuum` does, without its cost:
    /// that one takes each free page at the end out of the free list by searching the list for
    /// it, so its time grows with the square of the pages a prune freed. The commit of a switch
    /// to auto_vacuum=FULL moves the same pages and then empties the list at once; the file goes
    /// straight back to INCREMENTAL, so that a sync's commits do not vacuum. Nothing is written
    /// when no page is free. Killed between the two, the file stays FULL until the next writer
    /// opens it (`IndexMigration.enableIncrementalVacuum`), which only vacuums sooner meanwhile.
    private func releaseFreePages() {
        guard let free = try? connection.statement("PRAGMA freelist_count") else { return }
        let pages = ((try? free.step()) ?? false) ? free.int(0) : 0
        _ = try? free.run()
        guard pages > 0 else { return }
        try? connection.execute("PRAGMA auto_vacuum=FULL")
        try? connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
    }

    /// Rebuilds a table packed, in one transaction: a sparse rowid table is rewritten from all
    /// its rows (`rebuild(_:keeping:)`); otherwise its indexes, or a WITHOUT ROWID table's own
    /// b-tree, are rebuilt (`REINDEX`).
    private func repack(_ table: String) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            if Self.rowidTables.contains(table), isSparse(table) {
                try rebuild(table, keeping: "true")
            } else {
                try connection.execute("REINDEX \(table)")
            }
        }
    }

    /// The tables prune deletes from that keep their rows by rowid.
    private static let rowidTables: Set<String> = ["originals", "resources"]

    /// Whether a third or more of the table's own pages is unused: rows deleted in runs (images
    /// evicted in the order they were stored) leave its pages full, and copying it then buys
    /// nothing. False when SQLite is built without the `dbstat` table.
    private func isSparse(_ table: String) -> Bool {
        guard let query = try? connection.statement("SELECT sum(pgsize), sum(unused) FROM dbstat('main', 1) WHERE name = ?"),
              (try? query.bind(.text(table))) != nil, (try? query.step()) == true else { return false }
        let (size, unused) = (query.int(0), query.int(1))
        _ = try? query.step()
        return size > 0 && unused * 3 >= size
    }
}
