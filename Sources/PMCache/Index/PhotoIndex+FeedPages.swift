/// A feed's items a page at a time, for publishing: its manifest, JSON Feed and gallery pages are
/// written while they are read, so a 100 000-item feed is never in memory whole. The order of
/// the items is read once (a rowid per item), then each page with the files of its images.
extension PhotoIndex {
    /// The rowids of a feed's items in feed order, or newest first as its pages show them (by
    /// `published`, undated items last, ties in feed order). Sorted here: SQLite's sorter would
    /// hold a whole record per item (with `temp_store=MEMORY`, ~10 MB for 100 000 items).
    public func itemOrder(feedKey: String, newestFirst: Bool) throws(IndexError) -> [Int64] {
        let query = try connection.statement("SELECT rowid, position, published FROM items WHERE feed_key = ?")
        try query.bind(.text(feedKey))
        var keys: [ItemOrderKey] = []
        while try query.step() { keys.append(ItemOrderKey(rowid: Int64(query.int(0)), position: query.int(1), published: query.optionalDouble(2))) }
        return Self.itemOrder(keys, newestFirst: newestFirst)
    }

    /// Items' rowids in the order `itemOrder(feedKey:newestFirst:)` reads them in, from their
    /// keys: for a caller that holds the items already.
    public static func itemOrder(_ keys: [ItemOrderKey], newestFirst: Bool) -> [Int64] {
        var keys = keys
        if newestFirst {
            // Undated items sort after every dated one.
            keys.sort { ($0.published ?? -.infinity, -$0.position, -$0.rowid) > ($1.published ?? -.infinity, -$1.position, -$1.rowid) }
        } else {
            keys.sort { ($0.position, $0.rowid) < ($1.position, $1.rowid) }
        }
        return keys.map(\.rowid)
    }

    /// `feedItems(feedKey:)` for the items `rowids` name, in that order: statuses derived, the
    /// files of every image they name, the validators of their media URLs.
    /// With `known` (a prune's rows), each image's files are looked up there instead of joined.
    public func feedItems(feedKey: String, rowids: [Int64], known: KnownFiles? = nil) throws(IndexError) -> FeedItems {
        var page = FeedItems()
        guard !rowids.isEmpty else { return page }
        if let known {
            page.items = try placedItems(feedKey: feedKey, rowids: rowids, known: known, into: &page)
        } else {
            page.items = try joinedItems(feedKey: feedKey, rowids: rowids, into: &page)
        }
        for index in page.items.indices {
            let item = page.items[index]
            page.items[index].status = Self.status(item.status, sha256: item.sha256, files: item.sha256.flatMap { page.files[$0] })
        }
        try addFurtherMedia(feedKey: feedKey, to: &page)
        return page
    }

    private static let itemColumns = """
        i.item_id, i.position, i.title, i.link, i.published, i.date_taken, i.author, i.tags, i.description,
        i.media_url, i.status, i.error, i.sha256, i.media_source, r.etag, r.last_modified, j.key
        """

    /// The items with their files joined: one row per item and thumbnail size, put in its place
    /// by `j.key` as in `placedItems` (SQLite's sorter would copy every row whole to order them).
    private func joinedItems(feedKey: String, rowids: [Int64], into page: inout FeedItems) throws(IndexError) -> [ItemRecord] {
        let query = try connection.statement("""
            SELECT \(Self.itemColumns), o.path, t.size, o.warning, o.placeholder
            FROM json_each(?) j
            CROSS JOIN items i ON i.rowid = j.value
            LEFT JOIN originals o ON o.sha256 = i.sha256 LEFT JOIN thumbnails t ON t.original_sha256 = i.sha256
            LEFT JOIN resources r ON r.url = i.media_url AND r.sha256 = i.sha256
            WHERE i.feed_key = ?
            """)
        try query.bind(.text(Self.rowidList(rowids)), .text(feedKey))
        var places = [ItemRecord?](repeating: nil, count: rowids.count)
        while try query.step() {
            let place = query.int(16)
            // An item's further rows (one per thumbnail size) repeat its columns: read it once.
            let sha256: String?
            if let placed = places[place] {
                sha256 = placed.sha256
            } else {
                let item = Self.item(query, validators: &page.validators)
                if let sha256 = item.sha256, page.files[sha256] == nil {
                    page.files[sha256] = ImageFiles(original: query.text(17), thumbnails: [:], warning: query.text(19),
                                                    placeholder: query.text(20))
                }
                places[place] = item
                sha256 = item.sha256
            }
            if let sha256, let size = query.text(18) {
                page.files[sha256]?.thumbnails[size] = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size)
            }
        }
        return places.compactMap { $0 }
    }

    /// The items with their files from `known`: one row per item, put in its place by `j.key`
    /// instead of sorted by SQLite, whose sorter would copy every row whole (descriptions and all).
    /// CROSS JOIN keeps the list outside: unsorted, SQLite would walk the feed's items and scan
    /// the list for each.
    private func placedItems(feedKey: String, rowids: [Int64], known: KnownFiles,
                             into page: inout FeedItems) throws(IndexError) -> [ItemRecord] {
        let query = try connection.statement("""
            SELECT \(Self.itemColumns)
            FROM json_each(?) j
            CROSS JOIN items i ON i.rowid = j.value
            LEFT JOIN resources r ON r.url = i.media_url AND r.sha256 = i.sha256
            WHERE i.feed_key = ?
            """)
        try query.bind(.text(Self.rowidList(rowids)), .text(feedKey))
        var places = [ItemRecord?](repeating: nil, count: rowids.count)
        while try query.step() {
            let item = Self.item(query, validators: &page.validators)
            if let sha256 = item.sha256, page.files[sha256] == nil { page.files[sha256] = known.files(of: sha256) }
            places[query.int(16)] = item
        }
        return places.compactMap { $0 }
    }

    private static func rowidList(_ rowids: [Int64]) -> String {
        "[" + rowids.map(String.init).joined(separator: ",") + "]"
    }

    /// An item from the first columns of `itemColumns`; its media URL's validators go to `validators`.
    private static func item(_ query: Statement, validators: inout [String: MediaValidators]) -> ItemRecord {
        let item = ItemRecord(
            itemID: query.text(0) ?? "", position: query.int(1), title: query.text(2) ?? "", link: query.text(3),
            published: query.optionalDouble(4), dateTaken: query.optionalDouble(5), author: query.text(6),
            tags: TagList.decode(query.text(7)), description: query.text(8), mediaURL: query.text(9),
            status: ItemStatus(stored: query.text(10)), error: query.text(11), sha256: query.text(12),
            mediaSource: query.text(13))
        if let url = item.mediaURL, let found = MediaValidators(etag: query.text(14), lastModified: query.text(15)) {
            validators[url] = found
        }
        return item
    }

    /// The page's images after the first, with their files and validators.
    private func addFurtherMedia(feedKey: String, to page: inout FeedItems) throws(IndexError) {
        let query = try connection.statement("""
            SELECT item_id, item_media.url, source, \(Self.derivedStatus(of: "item_media")), error, item_media.sha256,
                   r.etag, r.last_modified
            FROM item_media LEFT JOIN resources r ON r.url = item_media.url AND r.sha256 = item_media.sha256
            WHERE feed_key = ? AND item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, ordinal
            """)
        try query.bind(.text(feedKey), .text(JSONStringList.encode(page.items.map(\.itemID))))
        var more: [String: [MediaRecord]] = [:]
        while try query.step() {
            let url = query.text(1) ?? ""
            more[query.text(0) ?? "", default: []].append(MediaRecord(
                url: url, source: query.text(2) ?? "", status: ItemStatus(stored: query.text(3)),
                error: query.text(4), sha256: query.text(5)))
            if let found = MediaValidators(etag: query.text(6), lastModified: query.text(7)) { page.validators[url] = found }
        }
        guard !more.isEmpty else { return }
        let hashes = Set(more.values.joined().compactMap(\.sha256)).subtracting(page.files.keys)
        for (sha256, files) in try files(of: hashes) {
            page.files[sha256] = ImageFiles(original: files.original?.path, thumbnails: files.thumbnails.mapValues(\.path),
                                            warning: files.original?.warning, placeholder: files.original?.placeholder)
        }
        Self.attach(&more, to: &page.items)
    }

    /// The feed's own image: its files (nil when its row names none) and the validators it was
    /// fetched with (when its URL still names that image).
    public func feedImage(feedKey: String) throws(IndexError) -> (files: ImageFiles?, validators: MediaValidators?) {
        let query = try connection.statement("""
            SELECT f.image_sha256, r.etag, r.last_modified FROM feeds f
            LEFT JOIN resources r ON r.url = f.image_url AND r.sha256 = f.image_sha256 WHERE f.key = ?
            """)
        try query.bind(.text(feedKey))
        guard try query.step(), let sha256 = query.text(0) else { return (nil, nil) }
        let validators = MediaValidators(etag: query.text(1), lastModified: query.text(2))
        _ = try query.step()
        let stored = try files(of: [sha256])[sha256]
        let files = stored.map { ImageFiles(original: $0.original?.path, thumbnails: $0.thumbnails.mapValues(\.path)) }
        return (files, validators)
    }

    /// How many of a feed's items are in each status, derived from the files as items are read.
    public func statusCounts(feedKey: String, known: KnownFiles? = nil) throws(IndexError) -> [ItemStatus: Int] {
        if let known { return try statusCounts(feedKey: feedKey, known: known) }
        let query = try connection.statement("""
            SELECT \(Self.derivedStatus), count(*) FROM items WHERE feed_key = ? GROUP BY 1
            """)
        try query.bind(.text(feedKey))
        var counts: [ItemStatus: Int] = [:]
        while try query.step() { counts[ItemStatus(stored: query.text(0)), default: 0] += query.int(1) }
        return counts
    }

    /// The same with each image's files looked up in `known` (a prune's rows): the derived status
    /// of 100 000 items without two subqueries each.
    private func statusCounts(feedKey: String, known: KnownFiles) throws(IndexError) -> [ItemStatus: Int] {
        let query = try connection.statement("SELECT status, sha256 FROM items WHERE feed_key = ?")
        try query.bind(.text(feedKey))
        var counts: [ItemStatus: Int] = [:]
        while try query.step() {
            let sha256 = query.text(1)
            let files = sha256.map { known.files(of: $0) }
            counts[Self.status(ItemStatus(stored: query.text(0)), sha256: sha256, files: files), default: 0] += 1
        }
        return counts
    }
}

/// What orders an item among its feed's: its row, its place in the feed, when it was published.
public struct ItemOrderKey: Sendable {
    public var rowid: Int64
    public var position: Int
    public var published: Double?

    public init(rowid: Int64, position: Int, published: Double?) {
        (self.rowid, self.position, self.published) = (rowid, position, published)
    }
}
