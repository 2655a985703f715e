/// A feed's items together with the files of their images, in one query: what its manifest and
/// pages are written from. `items(feedKey:)` then `files(of:)` give the same, in two passes that
/// look each image up three times (twice for its status, once more for its paths); at 100 000
/// items that is most of a prune's republishing.
extension PhotoIndex {
    /// The files the index holds for one image, as paths.
    public struct ImageFiles: Sendable, Equatable {
        public var original: String?
        /// Thumbnail paths by size (`40x40`).
        public var thumbnails: [String: String]
        /// The stored original's decoding warning (`originals.warning`): its thumbnails show the
        /// part of a damaged file that decodes.
        public var warning: String?
        /// The image's ThumbHash, base64 (`originals.placeholder`), while the original's row is
        /// there; nil for one stored before schema 6.
        public var placeholder: String?

        public init(original: String?, thumbnails: [String: String], warning: String? = nil, placeholder: String? = nil) {
            self.original = original
            self.thumbnails = thumbnails
            self.warning = warning
            self.placeholder = placeholder
        }
    }

    public struct FeedItems: Sendable, Equatable {
        /// In feed order, statuses derived as `items(feedKey:)` derives them.
        public var items: [ItemRecord] = []
        /// By image hash, for every item that names one (empty when the index holds no file of it).
        public var files: [String: ImageFiles] = [:]
        /// By media URL (the items' and the feed's own image): the HTTP validators its bytes were
        /// fetched with, for the URLs that have any and whose row still names the item's image.
        public var validators: [String: MediaValidators] = [:]

        public init() {}
    }

    public func feedItems(feedKey: String) throws(IndexError) -> FeedItems {
        try feedItems(feedKey: feedKey, known: nil)
    }

    /// The same, with each image's files looked up in `known` (when given) instead of joined.
    public func feedItems(feedKey: String, known: KnownFiles?) throws(IndexError) -> FeedItems {
        // One row per item and thumbnail size (one per item with `known`); an item's rows are adjacent.
        let query = try connection.statement(known == nil ? """
            SELECT i.item_id, i.position, i.title, i.link, i.published, i.date_taken, i.author, i.tags, i.description,
                   i.media_url, i.status, i.error, i.sha256, i.media_source, r.etag, r.last_modified,
                   o.path, t.size, o.warning, o.placeholder
            FROM items i
            LEFT JOIN originals o ON o.sha256 = i.sha256
            LEFT JOIN thumbnails t ON t.original_sha256 = i.sha256
            LEFT JOIN resources r ON r.url = i.media_url AND r.sha256 = i.sha256
            WHERE i.feed_key = ? ORDER BY i.position, i.item_id, t.size
            """ : """
            SELECT i.item_id, i.position, i.title, i.link, i.published, i.date_taken, i.author, i.tags, i.description,
                   i.media_url, i.status, i.error, i.sha256, i.media_source, r.etag, r.last_modified
            FROM items i
            LEFT JOIN resources r ON r.url = i.media_url AND r.sha256 = i.sha256
            WHERE i.feed_key = ? ORDER BY i.position, i.item_id
            """)
        try query.bind(.text(feedKey))
        var feed = FeedItems()
        var current: (id: String, position: Int)?
        while try query.step() {
            let id = query.text(0) ?? "", position = query.int(1)
            if current.map({ $0.id != id || $0.position != position }) ?? true {
                current = (id, position)
                feed.items.append(ItemRecord(
                    itemID: id, position: position, title: query.text(2) ?? "", link: query.text(3),
                    published: query.optionalDouble(4), dateTaken: query.optionalDouble(5), author: query.text(6),
                    tags: TagList.decode(query.text(7)), description: query.text(8), mediaURL: query.text(9),
                    status: ItemStatus(stored: query.text(10)), error: query.text(11), sha256: query.text(12),
                    mediaSource: query.text(13)))
                if let sha256 = feed.items[feed.items.count - 1].sha256, feed.files[sha256] == nil {
                    feed.files[sha256] = known?.files(of: sha256)
                        ?? ImageFiles(original: query.text(16), thumbnails: [:], warning: query.text(18),
                                      placeholder: query.text(19))
                }
                if let url = query.text(9), let found = MediaValidators(etag: query.text(14), lastModified: query.text(15)) {
                    feed.validators[url] = found
                }
            }
            if known == nil, let sha256 = feed.items[feed.items.count - 1].sha256, let size = query.text(17) {
                feed.files[sha256]?.thumbnails[size] = CacheLayout.thumbnailPath(originalSHA256: sha256, size: size)
            }
        }
        for index in feed.items.indices {
            let item = feed.items[index]
            feed.items[index].status = Self.status(item.status, sha256: item.sha256, files: item.sha256.flatMap { feed.files[$0] })
        }
        try addMoreMedia(feedKey: feedKey, to: &feed, known: known)
        try addImageValidators(feedKey: feedKey, to: &feed)
        return feed
    }

    /// The feed's own image's validators, when its row names the image it mirrored.
    private func addImageValidators(feedKey: String, to feed: inout FeedItems) throws(IndexError) {
        let query = try connection.statement("""
            SELECT r.url, r.etag, r.last_modified FROM feeds f
            JOIN resources r ON r.url = f.image_url AND r.sha256 = f.image_sha256 WHERE f.key = ?
            """)
        try query.bind(.text(feedKey))
        while try query.step() {
            if let url = query.text(0), let found = MediaValidators(etag: query.text(1), lastModified: query.text(2)) {
                feed.validators[url] = found
            }
        }
    }

    /// The images after the first, with their files, onto the items already read (few feeds have any).
    private func addMoreMedia(feedKey: String, to feed: inout FeedItems, known: KnownFiles?) throws(IndexError) {
        var (more, validators) = try moreMedia(feedKey: feedKey)
        guard !more.isEmpty else { return }
        feed.validators.merge(validators) { first, _ in first }
        let hashes = Set(more.values.joined().compactMap(\.sha256)).subtracting(feed.files.keys)
        if let known {
            for sha256 in hashes { feed.files[sha256] = known.files(of: sha256) }
        } else {
            for (sha256, files) in try files(of: hashes) {
                feed.files[sha256] = ImageFiles(original: files.original?.path, thumbnails: files.thumbnails.mapValues(\.path),
                                                warning: files.original?.warning, placeholder: files.original?.placeholder)
            }
        }
        Self.attach(&more, to: &feed.items)
    }

    /// `derivedStatus` in Swift, from the files a join found.
    static func status(_ stored: ItemStatus, sha256: String?, files: ImageFiles?) -> ItemStatus {
        guard sha256 != nil, ItemStatus.derivedFromFiles.contains(stored), let files else { return stored }
        if files.thumbnails.isEmpty { return .evicted }
        return files.original == nil ? .evictedOriginal : .ok
    }
}
