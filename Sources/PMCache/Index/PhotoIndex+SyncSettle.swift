/// How a sync settles a staged feed's rows from what it did with each image, in one transaction,
/// and then marks the feed synced.
extension PhotoIndex {
    /// How many items the feed has.
    public func itemCount(feedKey: String) throws(IndexError) -> Int {
        let query = try connection.statement("SELECT count(*) FROM items WHERE feed_key = ?")
        try query.bind(.text(feedKey))
        let count = try query.step() ? query.int(0) : 0
        _ = try query.step()
        return count
    }

    /// Whether every image the feed's rows name was stored when they were settled: no item or
    /// further image with a URL is `failed`. (A URL that failed may have been stored since, for
    /// another feed, and its items then settle to `ok`.)
    public func namesOnlyStoredMedia(feedKey: String) throws(IndexError) -> Bool {
        let query = try connection.statement("""
            SELECT NOT EXISTS (SELECT 1 FROM items WHERE feed_key = ?1 AND media_url IS NOT NULL AND status <> 'ok')
               AND NOT EXISTS (SELECT 1 FROM item_media WHERE feed_key = ?1 AND status <> 'ok')
            """)
        try query.bind(.text(feedKey))
        let answer = try query.step() && query.int(0) == 1
        _ = try query.step()
        return answer
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

    /// A synced feed's row once its images are settled: the time, the validators of the document
    /// its rows came from, and its own image's hash (nil when it has none mirrored).
    public func finishSync(feedKey: String, at time: Double, etag: String?, lastModified: String?,
                           imageSHA256: String?) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            try connection.statement("""
                UPDATE feeds SET last_sync = ?, etag = ?, last_modified = ?, image_sha256 = ? WHERE key = ?
                """).bind(.real(time), .optional(etag), .optional(lastModified), .optional(imageSHA256),
                          .text(feedKey)).run()
        }
    }
}

/// What a sync reads of a media URL to settle an item's image: the hash the URL names now, when
/// it was last downloaded and used, and when files were last stored for the image.
public struct MediaState: Sendable, Equatable {
    public var sha256: String
    public var fetchedAt: Double
    public var lastAccess: Double
    public var filesStoredAt: Double?

    public init(sha256: String, fetchedAt: Double, lastAccess: Double, filesStoredAt: Double?) {
        self.sha256 = sha256; self.fetchedAt = fetchedAt; self.lastAccess = lastAccess; self.filesStoredAt = filesStoredAt
    }
}

/// A feed's staged rows read back and settled inside one transaction (`PhotoIndex.settleFeed`):
/// a page of items at a time, in feed order, as stored (statuses not derived from the files).
public final class SettlingRows {
    private let connection: SQLiteConnection
    public let feedKey: String
    private let span: ClosedRange<Int64>?
    private var cursor: Int64
    /// How many items the feed has.
    public let count: Int
    /// The rowids of the items `nextPage` returned last, in its order.
    public private(set) var pageRowids: [Int64] = []

    init(connection: SQLiteConnection, feedKey: String, span: ClosedRange<Int64>?, count: Int) {
        self.connection = connection
        self.feedKey = feedKey
        self.span = span
        self.count = count
        cursor = (span?.lowerBound ?? 1) - 1
    }

    /// The next items, each with its further images; empty at the end.
    public func nextPage(limit: Int) throws(IndexError) -> [ItemRecord] {
        guard let span else { return [] }
        // NOT INDEXED: the walk is a range of the table's rowids, not a scan of the feed's
        // primary-key entries sorted again for every page.
        let query = try connection.statement("""
            SELECT rowid, item_id, position, title, link, published, date_taken, author, tags, description,
                   media_url, status, error, sha256, media_source
            FROM items NOT INDEXED
            WHERE rowid > ? AND rowid <= ? AND feed_key = ? ORDER BY rowid LIMIT ?
            """)
        try query.bind(.integer(cursor), .integer(span.upperBound), .text(feedKey), .integer(Int64(limit)))
        var items: [ItemRecord] = []
        pageRowids.removeAll(keepingCapacity: true)
        while try query.step() {
            cursor = Int64(query.int(0))
            pageRowids.append(cursor)
            items.append(ItemRecord(
                itemID: query.text(1) ?? "", position: query.int(2), title: query.text(3) ?? "", link: query.text(4),
                published: query.optionalDouble(5), dateTaken: query.optionalDouble(6), author: query.text(7),
                tags: TagList.decode(query.text(8)), description: query.text(9), mediaURL: query.text(10),
                status: ItemStatus(stored: query.text(11)), error: query.text(12), sha256: query.text(13),
                mediaSource: query.text(14)))
        }
        try attachFurtherMedia(to: &items)
        return items
    }

    private func attachFurtherMedia(to items: inout [ItemRecord]) throws(IndexError) {
        guard !items.isEmpty else { return }
        let query = try connection.statement("""
            SELECT item_id, url, source, status, error, sha256 FROM item_media
            WHERE feed_key = ? AND item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, ordinal
            """)
        try query.bind(.text(feedKey), .text(JSONStringList.encode(items.map(\.itemID))))
        var more: [String: [MediaRecord]] = [:]
        while try query.step() {
            more[query.text(0) ?? "", default: []].append(MediaRecord(
                url: query.text(1) ?? "", source: query.text(2) ?? "", status: ItemStatus(stored: query.text(3)),
                error: query.text(4), sha256: query.text(5)))
        }
        guard !more.isEmpty else { return }
        for index in items.indices {
            if let media = more.removeValue(forKey: items[index].itemID) { items[index].moreMedia = media }
        }
    }

    /// What the index holds for each of `urls` it knows.
    public func states(of urls: [String]) throws(IndexError) -> [String: MediaState] {
        var found: [String: MediaState] = [:]
        guard !urls.isEmpty else { return found }
        let query = try connection.statement("""
            SELECT key, sha256, fetched_at, last_access,
                   max(ifnull((SELECT stored_at FROM originals WHERE sha256 = s.sha256), -1e300),
                       ifnull((SELECT max(stored_at) FROM thumbnails WHERE original_sha256 = s.sha256), -1e300))
            FROM (SELECT j.key AS key, coalesce(r.sha256, e.sha256) AS sha256, ifnull(r.fetched_at, 0) AS fetched_at,
                         coalesce(r.last_access, e.last_access) AS last_access
                  FROM json_each(?) j
                  LEFT JOIN resources r ON r.url = j.value AND r.sha256 <> ''
                  LEFT JOIN temp.evicted_media e ON e.url = j.value AND r.url IS NULL
                  WHERE r.url IS NOT NULL OR e.url IS NOT NULL) s
            """)
        try query.bind(.text(JSONStringList.encode(urls)))
        while try query.step() {
            guard let sha256 = query.text(1) else { continue }
            let stored = query.double(4)
            found[urls[query.int(0)]] = MediaState(sha256: sha256, fetchedAt: query.double(2), lastAccess: query.double(3),
                                                   filesStoredAt: stored > -1e299 ? stored : nil)
        }
        return found
    }

    /// Writes what became of one image of an item (`ordinal` 0: the item's own row, 1…: its
    /// `item_media` rows). Only after every file its hash names is recorded.
    public func settle(_ media: PhotoIndex.SettledMedia) throws(IndexError) {
        let values: [SQLValue] = [.text(media.status.rawValue), .optional(media.error), .optional(media.sha256),
                                  .text(feedKey), .text(media.itemID)]
        if media.ordinal == 0 {
            try connection.statement("UPDATE items SET status = ?, error = ?, sha256 = ? WHERE feed_key = ? AND item_id = ?")
                .bind(values[0], values[1], values[2], values[3], values[4]).run()
        } else {
            try connection.statement("""
                UPDATE item_media SET status = ?, error = ?, sha256 = ? WHERE feed_key = ? AND item_id = ? AND ordinal = ?
                """).bind(values[0], values[1], values[2], values[3], values[4], .integer(Int64(media.ordinal))).run()
        }
    }
}

extension PhotoIndex {
    /// Runs `body` over a feed's rows in one transaction (one commit, whatever the feed's
    /// length): it reads them a page at a time and settles what changed.
    public func settleFeed<Settled: Sendable>(key: String, _ body: @Sendable (SettlingRows) throws -> Settled) throws -> Settled {
        let rows = SettlingRows(connection: connection, feedKey: key, span: try itemSpan(feedKey: key),
                                count: try itemCount(feedKey: key))
        try connection.beginWrite()
        do {
            let settled = try body(rows)
            try connection.execute("COMMIT")
            return settled
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
