extension PhotoIndex {
    /// Replaces a feed's row and its items with what this sync saw, in one transaction.
    public func replaceFeed(_ feed: FeedRecord, items: [ItemRecord]) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            let lastSync = try noteListing(feedKey: feed.key)
            try writeFeedRow(feed)
            try connection.statement("DELETE FROM item_media WHERE feed_key = ?").bind(.text(feed.key)).run()
            try connection.statement("DELETE FROM items WHERE feed_key = ?").bind(.text(feed.key)).run()
            let insert = """
                INSERT INTO items(feed_key, item_id, position, title, link, published, date_taken, author, tags,
                    description, media_url, status, error, sha256, media_source) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """
            let insertMedia = """
                INSERT INTO item_media(feed_key, item_id, ordinal, url, source, status, error, sha256)
                VALUES(?,?,?,?,?,?,?,?)
                """
            for item in items {
                try connection.statement(insert).bind(
                    .text(feed.key), .text(item.itemID), .integer(Int64(item.position)), .text(item.title),
                    .optional(item.link), .optional(item.published), .optional(item.dateTaken),
                    .optional(item.author), .text(TagList.encode(item.tags)), .optional(item.description),
                    .optional(item.mediaURL), .text(item.status.rawValue), .optional(item.error), .optional(item.sha256),
                    .optional(item.mediaSource)
                ).run()
                for (offset, media) in item.moreMedia.enumerated() {
                    try connection.statement(insertMedia).bind(
                        .text(feed.key), .text(item.itemID), .integer(Int64(offset + 1)), .text(media.url),
                        .text(media.source), .text(media.status.rawValue), .optional(media.error), .optional(media.sha256)
                    ).run()
                }
            }
            try carryListingRecency(feedKey: feed.key, lastSync: lastSync)
        }
    }

    /// The feed's row, inserted or replaced, inside the caller's transaction.
    func writeFeedRow(_ feed: FeedRecord) throws(IndexError) {
        try connection.statement("""
            INSERT INTO feeds(key, url, kind, title, link, attribution, etag, last_modified, last_sync,
                image_url, image_sha256, warnings)
            VALUES(?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT(key) DO UPDATE SET url = excluded.url, kind = excluded.kind, title = excluded.title,
                link = excluded.link, attribution = excluded.attribution, etag = excluded.etag,
                last_modified = excluded.last_modified, last_sync = excluded.last_sync,
                image_url = excluded.image_url, image_sha256 = excluded.image_sha256, warnings = excluded.warnings
            """).bind(.text(feed.key), .text(feed.url), .text(feed.kind), .text(feed.title), .optional(feed.link),
                      .optional(feed.attribution), .optional(feed.etag), .optional(feed.lastModified),
                      .real(feed.lastSync), .optional(feed.imageURL), .optional(feed.imageSHA256),
                      feed.warnings.isEmpty ? .null : .text(TagList.encode(feed.warnings))).run()
    }

    public func feeds() throws(IndexError) -> [FeedRecord] {
        let query = try connection.statement("""
            SELECT key, url, kind, title, link, attribution, etag, last_modified, last_sync,
                   image_url, image_sha256, warnings
            FROM feeds ORDER BY last_sync DESC, key
            """)
        var result: [FeedRecord] = []
        while try query.step() {
            result.append(FeedRecord(key: query.text(0) ?? "", url: query.text(1) ?? "", kind: query.text(2) ?? "",
                                     title: query.text(3) ?? "", link: query.text(4), attribution: query.text(5),
                                     etag: query.text(6), lastModified: query.text(7), lastSync: query.double(8),
                                     imageURL: query.text(9), imageSHA256: query.text(10),
                                     warnings: TagList.decode(query.text(11))))
        }
        return result
    }

    public func feed(key: String) throws(IndexError) -> FeedRecord? {
        try feeds().first { $0.key == key }
    }

    /// The feed's items in feed order, each image item's status derived from the files the
    /// index holds for it (`derivedStatus`).
    public func items(feedKey: String) throws(IndexError) -> [ItemRecord] {
        let query = try connection.statement("""
            SELECT item_id, position, title, link, published, date_taken, author, tags, description, media_url,
                   \(Self.derivedStatus), error, sha256, media_source
            FROM items WHERE feed_key = ? ORDER BY position
            """)
        try query.bind(.text(feedKey))
        var result: [ItemRecord] = []
        while try query.step() {
            result.append(ItemRecord(
                itemID: query.text(0) ?? "", position: query.int(1), title: query.text(2) ?? "",
                link: query.text(3), published: query.optionalDouble(4), dateTaken: query.optionalDouble(5),
                author: query.text(6), tags: TagList.decode(query.text(7)), description: query.text(8),
                mediaURL: query.text(9), status: ItemStatus(stored: query.text(10)), error: query.text(11),
                sha256: query.text(12), mediaSource: query.text(13)))
        }
        var more = try moreMedia(feedKey: feedKey).media
        Self.attach(&more, to: &result)
        return result
    }

    /// Moves each item's further images from `more` (by item id) onto it.
    static func attach(_ more: inout [String: [MediaRecord]], to items: inout [ItemRecord]) {
        guard !more.isEmpty else { return }
        for index in items.indices {
            if let media = more.removeValue(forKey: items[index].itemID) { items[index].moreMedia = media }
        }
    }

    /// The images after the first of every item of the feed, by item id, statuses derived, and
    /// the validators of those whose URL still names the image's bytes.
    func moreMedia(feedKey: String) throws(IndexError)
        -> (media: [String: [MediaRecord]], validators: [String: MediaValidators])
    {
        let query = try connection.statement("""
            SELECT item_id, item_media.url, source, \(Self.derivedStatus(of: "item_media")), error, item_media.sha256,
                   r.etag, r.last_modified
            FROM item_media LEFT JOIN resources r ON r.url = item_media.url AND r.sha256 = item_media.sha256
            WHERE feed_key = ? ORDER BY item_id, ordinal
            """)
        try query.bind(.text(feedKey))
        var result: [String: [MediaRecord]] = [:]
        var validators: [String: MediaValidators] = [:]
        while try query.step() {
            let url = query.text(1) ?? ""
            result[query.text(0) ?? "", default: []].append(MediaRecord(
                url: url, source: query.text(2) ?? "", status: ItemStatus(stored: query.text(3)),
                error: query.text(4), sha256: query.text(5)))
            if let found = MediaValidators(etag: query.text(6), lastModified: query.text(7)) { validators[url] = found }
        }
        return (result, validators)
    }

    /// The decoding warning of every stored original that has one, by hash: files damaged in a
    /// way their thumbnails show (rare; one scan of `originals`).
    public func originalWarnings() throws(IndexError) -> [String: String] {
        try originalTexts(column: "warning")
    }

    /// The placeholder (`originals.placeholder`) of every original `known` keeps that has one,
    /// by its image's position there.
    public func placeholders(keptBy known: KnownFiles) throws(IndexError) -> TextColumn {
        let query = try connection.statement("SELECT sha256, placeholder FROM originals WHERE placeholder IS NOT NULL")
        var column = TextColumn()
        while try query.step() {
            guard let position = query.withText(0, { known.keptOriginalPosition(of: ImageHash(utf8: $0)) }) ?? nil else { continue }
            query.withText(1) { column.set($0, at: position) }
        }
        return column
    }

    private func originalTexts(column: StaticString) throws(IndexError) -> [String: String] {
        let query = try connection.statement("SELECT sha256, \(column) FROM originals WHERE \(column) IS NOT NULL")
        var texts: [String: String] = [:]
        while try query.step() {
            if let sha256 = query.text(0), let text = query.text(1) { texts[sha256] = text }
        }
        return texts
    }

    /// Every original and thumbnail row, whole, for `verify`.
    public func allFiles() throws(IndexError) -> (originals: [OriginalRecord], thumbnails: [ThumbnailRecord]) {
        let originals = try connection.statement(
            "SELECT sha256, path, bytes, format, stored_at, last_access FROM originals")
        var originalRows: [OriginalRecord] = []
        while try originals.step() { originalRows.append(Self.original(from: originals)) }
        let thumbnails = try connection.statement(
            "SELECT original_sha256, size, bytes, sha256, stored_at, last_access FROM thumbnails")
        var thumbnailRows: [ThumbnailRecord] = []
        while try thumbnails.step() { thumbnailRows.append(Self.thumbnail(from: thumbnails)) }
        return (originalRows, thumbnailRows)
    }
}
