/// How a sync writes a feed's rows as soon as its document is read ("staged", each image as the
/// index knew it before the sync), so that no parsed feed is kept: the mirror then reads the
/// media URLs back a page at a time (PhotoIndex+SyncMirror.swift), and the rows are settled from
/// what the sync did (PhotoIndex+SyncSettle.swift).
extension PhotoIndex {
    /// The latest `resources.last_access`: a sync starting after it can tell the URLs it did
    /// by their last access alone, even when the clock went back since an earlier sync.
    public func latestMediaAccess() throws(IndexError) -> Double? {
        let query = try connection.statement("SELECT max(last_access) FROM resources")
        guard try query.step(), !query.isNull(0) else { return nil }
        let latest = query.double(0)
        _ = try query.step()
        return latest
    }

    /// The hash each known media URL of `urls` names (`resources`); unknown URLs are absent.
    public func knownHashes(of urls: [String]) throws(IndexError) -> [String: String] {
        var known: [String: String] = [:]
        guard !urls.isEmpty else { return known }
        let query = try connection.statement("""
            SELECT j.key, coalesce(r.sha256, e.sha256) FROM json_each(?) j
            LEFT JOIN resources r ON r.url = j.value AND r.sha256 <> ''
            LEFT JOIN temp.evicted_media e ON e.url = j.value AND r.url IS NULL
            WHERE r.url IS NOT NULL OR e.url IS NOT NULL
            """)
        try query.bind(.text(JSONStringList.encode(urls)))
        while try query.step() {
            if let sha256 = query.text(1) { known[urls[query.int(0)]] = sha256 }
        }
        return known
    }

    /// Takes back a feed staged by this sync that has no manifest yet (writing it failed): a feed
    /// row without its manifest is damage. Its items go with it.
    public func unstageFeed(feedKey: String) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            let lastSync = try noteListing(feedKey: feedKey)
            try connection.statement("DELETE FROM item_media WHERE feed_key = ?").bind(.text(feedKey)).run()
            try connection.statement("DELETE FROM items WHERE feed_key = ?").bind(.text(feedKey)).run()
            try connection.statement("DELETE FROM feeds WHERE key = ?").bind(.text(feedKey)).run()
            try carryListingRecency(feedKey: feedKey, lastSync: lastSync)
        }
    }
}

/// A feed's rows being replaced in one transaction while its document is read (`stageFeed`):
/// each item goes in as it is parsed, so a feed of 100 000 items is never in memory whole, and a
/// document that turns out unreadable half-way leaves the feed's rows as they were.
public final class StagedRows {
    private let connection: SQLiteConnection
    public let feedKey: String
    /// Items added so far.
    public private(set) var count = 0
    /// Items whose id an earlier item has, under a stand-in id until the whole feed is in.
    private var repeated: [(standIn: String, id: String)] = []

    init(connection: SQLiteConnection, feedKey: String) {
        self.connection = connection
        self.feedKey = feedKey
    }

    /// The hash the index holds for a media URL (`resources`, else an evicted image's URL the
    /// sync gathered), nil when it knows none.
    public func knownHash(of url: String) throws(IndexError) -> String? {
        let query = try connection.statement("""
            SELECT sha256 FROM resources WHERE url = ?1 AND sha256 <> '' UNION ALL SELECT sha256 FROM temp.evicted_media WHERE url = ?1
            """)
        try query.bind(.text(url))
        let hash = try query.step() ? query.text(0) : nil
        _ = try query.step()
        return hash
    }

    /// Adds an item in feed order. An id an earlier item has becomes unique once the whole feed is
    /// in, as `FeedItemIDs.uniqued` makes it: `-2`, `-3`, … skipping ids any item of the feed has.
    public func add(_ item: ItemRecord) throws(IndexError) {
        count += 1
        if try insert(item, id: item.itemID) { return }
        let standIn = "\u{1}repeated \(count)"
        repeated.append((standIn, item.itemID))
        _ = try insert(item, id: standIn)
    }

    /// Adds an item after all the others with the first of its id, `-2`, `-3`, … no item has yet
    /// (the entries the feed listed unreadably).
    public func addUnique(_ item: ItemRecord) throws(IndexError) {
        try settleRepeatedIDs()
        count += 1
        var candidate = item.itemID, suffix = 2
        while try !insert(item, id: candidate) {
            candidate = "\(item.itemID)-\(suffix)"
            suffix += 1
        }
    }

    /// Drops what was added: the document is being read again from its start.
    public func restart() throws(IndexError) {
        try connection.statement("DELETE FROM item_media WHERE feed_key = ?").bind(.text(feedKey)).run()
        try connection.statement("DELETE FROM items WHERE feed_key = ?").bind(.text(feedKey)).run()
        count = 0
        repeated = []
    }

    /// Gives the items with a repeated id theirs, in feed order.
    func settleRepeatedIDs() throws(IndexError) {
        for (standIn, id) in repeated {
            var suffix = 2
            while try exists("\(id)-\(suffix)") { suffix += 1 }
            for table in ["items", "item_media"] {
                try connection.statement("UPDATE \(table) SET item_id = ? WHERE feed_key = ? AND item_id = ?")
                    .bind(.text("\(id)-\(suffix)"), .text(feedKey), .text(standIn)).run()
            }
        }
        repeated = []
    }

    private func exists(_ id: String) throws(IndexError) -> Bool {
        let query = try connection.statement("SELECT 1 FROM items WHERE feed_key = ? AND item_id = ?")
        try query.bind(.text(feedKey), .text(id))
        let found = try query.step()
        if found { _ = try query.step() }
        return found
    }

    /// Inserts the item under `id`; false when the feed already has an item of that id.
    private func insert(_ item: ItemRecord, id: String) throws(IndexError) -> Bool {
        try connection.statement("""
            INSERT INTO items(feed_key, item_id, position, title, link, published, date_taken, author, tags,
                description, media_url, status, error, sha256, media_source) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT(feed_key, item_id) DO NOTHING
            """).bind(
                .text(feedKey), .text(id), .integer(Int64(item.position)), .text(item.title),
                .optional(item.link), .optional(item.published), .optional(item.dateTaken),
                .optional(item.author), .text(TagList.encode(item.tags)), .optional(item.description),
                .optional(item.mediaURL), .text(item.status.rawValue), .optional(item.error), .optional(item.sha256),
                .optional(item.mediaSource)
            ).run()
        guard connection.changes > 0 else { return false }
        for (offset, media) in item.moreMedia.enumerated() {
            try connection.statement("""
                INSERT INTO item_media(feed_key, item_id, ordinal, url, source, status, error, sha256)
                VALUES(?,?,?,?,?,?,?,?)
                """).bind(
                    .text(feedKey), .text(id), .integer(Int64(offset + 1)), .text(media.url),
                    .text(media.source), .text(media.status.rawValue), .optional(media.error), .optional(media.sha256)
                ).run()
        }
        return true
    }
}

extension PhotoIndex {
    /// Replaces a feed's row and items in one transaction while `produce` reads its document:
    /// `produce` adds the items to the rows it is given and returns the feed's row, written last,
    /// and what else it read.
    /// When it throws, the transaction is rolled back and the feed's rows stay as they were.
    public func stageFeed<Read: Sendable>(key: String, url: String,
                                          _ produce: @Sendable (StagedRows) throws -> (FeedRecord, Read)) throws -> (FeedRecord, Read) {
        try connection.beginWrite()
        do {
            // The items need their feed's row; a new feed's is a stand-in until `produce` is done.
            try connection.statement("""
                INSERT INTO feeds(key, url, kind, title, last_sync) VALUES(?, ?, '', '', 0) ON CONFLICT(key) DO NOTHING
                """).bind(.text(key), .text(url)).run()
            // Before the rows that name them go: see PhotoIndex+EvictedMedia.swift.
            try gatherEvictedMedia(feedKey: key)
            let lastSync = try noteListing(feedKey: key)
            let rows = StagedRows(connection: connection, feedKey: key)
            try rows.restart()
            let (feed, read) = try produce(rows)
            try rows.settleRepeatedIDs()
            try writeFeedRow(try keepingValidators(feed))
            try carryListingRecency(feedKey: key, lastSync: lastSync)
            try connection.execute("COMMIT")
            return (feed, read)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// `feed` with the validators its row holds now: those of the document its rows were last
    /// settled from, none for a feed new to the cache. The staged row keeps them until
    /// `finishSync` writes the new document's, so that a sync stopped in between asks for the
    /// document in full next time instead of being told it has not changed (304) and reporting
    /// half-settled rows as an unchanged feed.
    private func keepingValidators(_ feed: FeedRecord) throws(IndexError) -> FeedRecord {
        let query = try connection.statement("SELECT etag, last_modified FROM feeds WHERE key = ?")
        try query.bind(.text(feed.key))
        var kept = feed
        kept.etag = nil
        kept.lastModified = nil
        while try query.step() {
            kept.etag = query.text(0)
            kept.lastModified = query.text(1)
        }
        return kept
    }
}
