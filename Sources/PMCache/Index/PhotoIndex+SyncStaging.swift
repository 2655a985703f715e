/// What a sync asks of the index so that its memory follows the work in flight, not the feeds: a
/// feed's rows are written as soon as it is parsed ("staged", with what the index knew of each
/// image before the sync), its media URLs are read back a page at a time to be mirrored, and its
/// rows are then settled from what the sync did, a page at a time again.
///
/// Pages walk a feed's items by rowid. `replaceFeed` inserts a feed's items in one transaction, in
/// feed order, so they are one run of rowids in position order; the span bounds the walk to it.
extension PhotoIndex {
    /// The first and last rowid of a feed's items; nil when it has none.
    public func itemSpan(feedKey: String) throws(IndexError) -> ClosedRange<Int64>? {
        let query = try connection.statement("SELECT min(rowid), max(rowid) FROM items WHERE feed_key = ?")
        try query.bind(.text(feedKey))
        guard try query.step(), !query.isNull(0) else { return nil }
        let span = Int64(query.int(0))...Int64(query.int(1))
        _ = try query.step()
        return span
    }

    /// How many items the feed has.
    public func itemCount(feedKey: String) throws(IndexError) -> Int {
        let query = try connection.statement("SELECT count(*) FROM items WHERE feed_key = ?")
        try query.bind(.text(feedKey))
        let count = try query.step() ? query.int(0) : 0
        _ = try query.step()
        return count
    }

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
            SELECT j.key, r.sha256 FROM json_each(?) j JOIN resources r ON r.url = j.value
            """)
        try query.bind(.text(JSONStringList.encode(urls)))
        while try query.step() {
            if let sha256 = query.text(1) { known[urls[query.int(0)]] = sha256 }
        }
        return known
    }

    /// The media URLs of a feed's items after rowid `after`, at most `limit` items, in feed order
    /// (each item's first image, then its further ones), and the rowid of the last item read.
    public func stagedMediaURLs(feedKey: String, span: ClosedRange<Int64>, after: Int64, limit: Int) throws(IndexError)
        -> (urls: [String], last: Int64?)
    {
        let query = try connection.statement("""
            SELECT rowid, item_id, media_url FROM items NOT INDEXED
            WHERE rowid > ? AND rowid <= ? AND feed_key = ? ORDER BY rowid LIMIT ?
            """)
        try query.bind(.integer(after), .integer(span.upperBound), .text(feedKey), .integer(Int64(limit)))
        var items: [(id: String, url: String?)] = []
        var last: Int64?
        while try query.step() {
            last = Int64(query.int(0))
            items.append((query.text(1) ?? "", query.text(2)))
        }
        guard !items.isEmpty else { return ([], nil) }
        let more = try connection.statement("""
            SELECT item_id, url FROM item_media
            WHERE feed_key = ? AND item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, ordinal
            """)
        try more.bind(.text(feedKey), .text(JSONStringList.encode(items.map(\.id))))
        var further: [String: [String]] = [:]
        while try more.step() { further[more.text(0) ?? "", default: []].append(more.text(1) ?? "") }
        var urls: [String] = []
        urls.reserveCapacity(items.count)
        for item in items {
            if let url = item.url { urls.append(url) }
            if let others = further.removeValue(forKey: item.id) { urls += others }
        }
        return (urls, last)
    }

    /// Items of a feed after rowid `after`, in rowid order, at most `limit`, as stored (statuses not
    /// derived from the files), each with its further images.
    public func stagedItems(feedKey: String, span: ClosedRange<Int64>, after: Int64, limit: Int) throws(IndexError)
        -> [(rowid: Int64, item: ItemRecord)]
    {
        // NOT INDEXED: the walk is a range of the table's rowids, not a scan of the feed's
        // primary-key entries sorted again for every page.
        let query = try connection.statement("""
            SELECT rowid, item_id, position, title, link, published, date_taken, author, tags, description,
                   media_url, status, error, sha256, media_source
            FROM items NOT INDEXED
            WHERE rowid > ? AND rowid <= ? AND feed_key = ? ORDER BY rowid LIMIT ?
            """)
        try query.bind(.integer(after), .integer(span.upperBound), .text(feedKey), .integer(Int64(limit)))
        var rows: [(rowid: Int64, item: ItemRecord)] = []
        while try query.step() {
            rows.append((Int64(query.int(0)), ItemRecord(
                itemID: query.text(1) ?? "", position: query.int(2), title: query.text(3) ?? "", link: query.text(4),
                published: query.optionalDouble(5), dateTaken: query.optionalDouble(6), author: query.text(7),
                tags: TagList.decode(query.text(8)), description: query.text(9), mediaURL: query.text(10),
                status: ItemStatus(stored: query.text(11)), error: query.text(12), sha256: query.text(13),
                mediaSource: query.text(14))))
        }
        try attachStagedMedia(feedKey: feedKey, to: &rows)
        return rows
    }

    /// Each row's `item_media` rows, in ordinal order, as stored.
    private func attachStagedMedia(feedKey: String, to rows: inout [(rowid: Int64, item: ItemRecord)]) throws(IndexError) {
        guard !rows.isEmpty else { return }
        let query = try connection.statement("""
            SELECT item_id, url, source, status, error, sha256 FROM item_media
            WHERE feed_key = ? AND item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, ordinal
            """)
        try query.bind(.text(feedKey), .text(JSONStringList.encode(rows.map(\.item.itemID))))
        var more: [String: [MediaRecord]] = [:]
        while try query.step() {
            more[query.text(0) ?? "", default: []].append(MediaRecord(
                url: query.text(1) ?? "", source: query.text(2) ?? "", status: ItemStatus(stored: query.text(3)),
                error: query.text(4), sha256: query.text(5)))
        }
        guard !more.isEmpty else { return }
        for index in rows.indices {
            if let media = more.removeValue(forKey: rows[index].item.itemID) { rows[index].item.moreMedia = media }
        }
    }

    /// How many distinct media URLs the items of `feedKeys` and their own images name.
    public func distinctMediaCount(feedKeys: [String]) throws(IndexError) -> Int {
        guard !feedKeys.isEmpty else { return 0 }
        let query = try connection.statement("""
            WITH synced(key) AS (SELECT value FROM json_each(?))
            SELECT count(DISTINCT url) FROM (
                SELECT media_url AS url FROM items WHERE feed_key IN synced AND media_url IS NOT NULL
                UNION ALL SELECT url FROM item_media WHERE feed_key IN synced
                UNION ALL SELECT image_url FROM feeds WHERE key IN synced AND image_url IS NOT NULL)
            """)
        try query.bind(.text(JSONStringList.encode(feedKeys)))
        let count = try query.step() ? query.int(0) : 0
        _ = try query.step()
        return count
    }

    /// What a sync needs to know of a media URL the index holds: the image and its files, and
    /// when the URL was last fetched and used.
    public struct SyncMedia: Sendable, Equatable {
        public var media: CachedMedia
        /// `resources.fetched_at`: when the URL's bytes were last downloaded.
        public var fetchedAt: Double
        /// `resources.last_access`: at or after a sync's start, the sync has done the URL.
        public var lastAccess: Double
        /// The newest `stored_at` of the image's original and thumbnails: at or after a sync's
        /// start, the sync wrote files for it.
        public var filesStoredAt: Double?
    }

    /// `media(for:)` for a page of URLs, with the times a sync decides by. Absent: unknown URLs.
    public func syncMedia(for urls: [String]) throws(IndexError) -> [String: SyncMedia] {
        var found: [String: SyncMedia] = [:]
        guard !urls.isEmpty else { return found }
        let query = try connection.statement("""
            SELECT j.key, r.sha256, r.etag, r.last_modified, r.fetched_at, r.last_access,
                   o.sha256, o.path, o.bytes, o.format, o.stored_at, o.last_access,
                   t.original_sha256, t.size, t.path, t.bytes, t.sha256, t.stored_at, t.last_access
            FROM json_each(?) j
            JOIN resources r ON r.url = j.value
            LEFT JOIN originals o ON o.sha256 = r.sha256
            LEFT JOIN thumbnails t ON t.original_sha256 = r.sha256
            """)
        try query.bind(.text(JSONStringList.encode(urls)))
        while try query.step() {
            guard let sha256 = query.text(1) else { continue }
            let url = urls[query.int(0)]
            if found[url] == nil {
                let original = query.isNull(6) ? nil : Self.original(from: query, at: 6)
                found[url] = SyncMedia(
                    media: CachedMedia(sha256: sha256, original: original, thumbnails: [:], etag: query.text(2),
                                       lastModified: query.text(3)),
                    fetchedAt: query.double(4), lastAccess: query.double(5), filesStoredAt: original?.storedAt)
            }
            if !query.isNull(12) {
                let thumbnail = Self.thumbnail(from: query, at: 12)
                let stored = found[url]?.filesStoredAt ?? thumbnail.storedAt
                found[url]?.media.thumbnails[thumbnail.size] = thumbnail
                found[url]?.filesStoredAt = max(stored, thumbnail.storedAt)
            }
        }
        return found
    }

    /// The final state of one image of a staged item: `ordinal` 0 is the item's own row, 1… its
    /// `item_media` rows.
    public struct SettledMedia: Sendable, Equatable {
        public var itemID: String
        public var ordinal: Int
        public var status: ItemStatus
        public var error: String?
        public var sha256: String?

        public init(itemID: String, ordinal: Int, status: ItemStatus, error: String?, sha256: String?) {
            self.itemID = itemID; self.ordinal = ordinal; self.status = status; self.error = error; self.sha256 = sha256
        }
    }

    /// Writes what a sync made of a feed's images, in one transaction. Call only after every file
    /// a `sha256` here names is recorded (its rows committed).
    public func settle(feedKey: String, _ media: [SettledMedia]) throws(IndexError) {
        guard !media.isEmpty else { return }
        try connection.transaction { () throws(IndexError) in
            for settled in media {
                let values: [SQLValue] = [.text(settled.status.rawValue), .optional(settled.error), .optional(settled.sha256),
                                          .text(feedKey), .text(settled.itemID)]
                if settled.ordinal == 0 {
                    try connection.statement("UPDATE items SET status = ?, error = ?, sha256 = ? WHERE feed_key = ? AND item_id = ?")
                        .bind(values[0], values[1], values[2], values[3], values[4]).run()
                } else {
                    try connection.statement("""
                        UPDATE item_media SET status = ?, error = ?, sha256 = ? WHERE feed_key = ? AND item_id = ? AND ordinal = ?
                        """).bind(values[0], values[1], values[2], values[3], values[4], .integer(Int64(settled.ordinal))).run()
                }
            }
        }
    }

    /// Takes back a feed staged by this sync that has no manifest yet (writing it failed): a feed
    /// row without its manifest is damage. Its items go with it.
    public func unstageFeed(feedKey: String) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            try connection.statement("DELETE FROM item_media WHERE feed_key = ?").bind(.text(feedKey)).run()
            try connection.statement("DELETE FROM items WHERE feed_key = ?").bind(.text(feedKey)).run()
            try connection.statement("DELETE FROM feeds WHERE key = ?").bind(.text(feedKey)).run()
        }
    }

    /// A synced feed's row once its images are settled: the time, the validators of the document
    /// its rows came from, and its own image's hash (nil when it has none mirrored).
    public func finishSync(feedKey: String, at time: Double, etag: String?, lastModified: String?,
                           imageSHA256: String?) throws(IndexError) {
        try connection.statement("""
            UPDATE feeds SET last_sync = ?, etag = ?, last_modified = ?, image_sha256 = ? WHERE key = ?
            """).bind(.real(time), .optional(etag), .optional(lastModified), .optional(imageSHA256), .text(feedKey)).run()
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

    /// The hash the index holds for a media URL (`resources`), nil when it knows none.
    public func knownHash(of url: String) throws(IndexError) -> String? {
        let query = try connection.statement("SELECT sha256 FROM resources WHERE url = ?")
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
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // The items need their feed's row; a new feed's is a stand-in until `produce` is done.
            try connection.statement("""
                INSERT INTO feeds(key, url, kind, title, last_sync) VALUES(?, ?, '', '', 0) ON CONFLICT(key) DO NOTHING
                """).bind(.text(key), .text(url)).run()
            let rows = StagedRows(connection: connection, feedKey: key)
            try rows.restart()
            let (feed, read) = try produce(rows)
            try rows.settleRepeatedIDs()
            try writeFeedRow(feed)
            try connection.execute("COMMIT")
            return (feed, read)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
