/// What the mirror step of a sync reads back of its staged feeds: their media URLs a page at a
/// time and what the index holds for each page. Pages walk a feed's items by rowid:
/// `replaceFeed` and `stageFeed` insert a feed's items in one transaction, in feed order, so they
/// are one run of rowids in position order, and the span bounds the walk to it.
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

        /// What settling an item's image reads of it.
        public var state: MediaState {
            MediaState(sha256: media.sha256, fetchedAt: fetchedAt, lastAccess: lastAccess, filesStoredAt: filesStoredAt)
        }
    }

    /// `media(for:)` for a page of URLs, with the times a sync decides by. Absent: unknown URLs.
    public func syncMedia(for urls: [String]) throws(IndexError) -> [String: SyncMedia] {
        var found: [String: SyncMedia] = [:]
        guard !urls.isEmpty else { return found }
        let query = try connection.statement("""
            SELECT j.key, coalesce(r.sha256, e.sha256), r.etag, r.last_modified, ifnull(r.fetched_at, 0),
                   coalesce(r.last_access, e.last_access),
                   o.sha256, o.path, o.bytes, o.format, o.stored_at, o.last_access,
                   t.original_sha256, t.size, t.bytes, t.sha256, t.stored_at, t.last_access
            FROM json_each(?) j
            LEFT JOIN resources r ON r.url = j.value AND r.sha256 <> ''
            LEFT JOIN temp.evicted_media e ON e.url = j.value AND r.url IS NULL
            LEFT JOIN originals o ON o.sha256 = coalesce(r.sha256, e.sha256)
            LEFT JOIN thumbnails t ON t.original_sha256 = coalesce(r.sha256, e.sha256)
            WHERE r.url IS NOT NULL OR e.url IS NOT NULL
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
}
