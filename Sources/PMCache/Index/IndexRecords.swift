/// Rows of the index, as plain values that cross actor boundaries.

public struct OriginalRecord: Sendable, Equatable {
    public var sha256: String
    public var path: String
    public var bytes: Int
    public var format: String
    public var storedAt: Double
    public var lastAccess: Double
    /// What the decoder said of a damaged file its thumbnails were still made from; nil when whole.
    public var warning: String?
    /// The image's ThumbHash, base64 (`Placeholder`); nil for an original stored before schema 6.
    public var placeholder: String?

    public init(sha256: String, path: String, bytes: Int, format: String, storedAt: Double, lastAccess: Double,
                warning: String? = nil, placeholder: String? = nil) {
        self.sha256 = sha256; self.path = path; self.bytes = bytes
        self.format = format; self.storedAt = storedAt; self.lastAccess = lastAccess; self.warning = warning
        self.placeholder = placeholder
    }
}

/// A thumbnail file: named by its original's hash and its size, so its path is not stored.
public struct ThumbnailRecord: Sendable, Equatable {
    public var originalSHA256: String
    public var size: String
    public var bytes: Int
    /// The SHA-256 of the PNG's own bytes.
    public var sha256: String
    public var storedAt: Double
    public var lastAccess: Double

    public var path: String { CacheLayout.thumbnailPath(originalSHA256: originalSHA256, size: size) }

    public init(originalSHA256: String, size: String, bytes: Int, sha256: String, storedAt: Double, lastAccess: Double) {
        self.originalSHA256 = originalSHA256; self.size = size; self.bytes = bytes
        self.sha256 = sha256; self.storedAt = storedAt; self.lastAccess = lastAccess
    }
}

/// A media URL we fetched, the content it had and the validators to ask about it again.
public struct ResourceRecord: Sendable, Equatable {
    public var url: String
    public var sha256: String
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    public var fetchedAt: Double
    public var lastAccess: Double

    public init(url: String, sha256: String, etag: String?, lastModified: String?, contentType: String?,
                fetchedAt: Double, lastAccess: Double) {
        self.url = url; self.sha256 = sha256; self.etag = etag; self.lastModified = lastModified
        self.contentType = contentType; self.fetchedAt = fetchedAt; self.lastAccess = lastAccess
    }
}

/// The HTTP validators a media URL's bytes were fetched with (`resources.etag`,
/// `last_modified`): what `sync --revalidate` asks with.
public struct MediaValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    /// Nil when there is neither: most URLs of a feed without validators cost no entry.
    public init?(etag: String?, lastModified: String?) {
        guard etag != nil || lastModified != nil else { return nil }
        self.etag = etag
        self.lastModified = lastModified
    }
}

public struct FeedRecord: Sendable, Equatable {
    public var key: String
    public var url: String
    public var kind: String
    public var title: String
    public var link: String?
    public var attribution: String?
    public var etag: String?
    public var lastModified: String?
    public var lastSync: Double
    /// The feed's own image (its logo), mirrored like an item's: the URL, and its hash once stored.
    public var imageURL: String?
    public var imageSHA256: String?
    /// What had to be repaired to read the feed (recovered XML, a guessed charset).
    public var warnings: [String]

    public init(key: String, url: String, kind: String, title: String, link: String?, attribution: String?,
                etag: String?, lastModified: String?, lastSync: Double,
                imageURL: String? = nil, imageSHA256: String? = nil, warnings: [String] = []) {
        self.key = key; self.url = url; self.kind = kind; self.title = title; self.link = link
        self.attribution = attribution; self.etag = etag; self.lastModified = lastModified; self.lastSync = lastSync
        self.imageURL = imageURL; self.imageSHA256 = imageSHA256; self.warnings = warnings
    }
}

/// An image of an item after its first (`item_media`): where the feed put it and what became of it.
public struct MediaRecord: Sendable, Equatable {
    public var url: String
    /// `FeedMedia.Source`'s raw value (`media:content`, `html`, …).
    public var source: String
    public var status: ItemStatus
    public var error: String?
    public var sha256: String?

    public init(url: String, source: String, status: ItemStatus, error: String?, sha256: String?) {
        self.url = url; self.source = source; self.status = status; self.error = error; self.sha256 = sha256
    }
}

/// One feed item as mirrored: what the feed said and what became of its images. The first
/// image's fields sit on the item itself (`mediaURL`, `status`, `sha256`); the rest are `moreMedia`.
public struct ItemRecord: Sendable, Equatable {
    public var itemID: String
    public var position: Int
    public var title: String
    public var link: String?
    public var published: Double?
    public var dateTaken: Double?
    public var author: String?
    public var tags: [String]
    public var description: String?
    public var mediaURL: String?
    public var status: ItemStatus
    public var error: String?
    public var sha256: String?
    /// Where the feed put the first image (`FeedMedia.Source`'s raw value); nil in caches of schema 1.
    public var mediaSource: String?
    /// The item's images after the first, in the feed's order.
    public var moreMedia: [MediaRecord]

    public init(itemID: String, position: Int, title: String, link: String?, published: Double?, dateTaken: Double?,
                author: String?, tags: [String], description: String?, mediaURL: String?, status: ItemStatus,
                error: String?, sha256: String?, mediaSource: String? = nil, moreMedia: [MediaRecord] = []) {
        self.itemID = itemID; self.position = position; self.title = title; self.link = link
        self.published = published; self.dateTaken = dateTaken; self.author = author; self.tags = tags
        self.description = description; self.mediaURL = mediaURL; self.status = status
        self.error = error; self.sha256 = sha256; self.mediaSource = mediaSource; self.moreMedia = moreMedia
    }

    /// Every image of the item with what became of it, the first one first.
    public var allMedia: [MediaRecord] {
        guard let mediaURL else { return moreMedia }
        return [MediaRecord(url: mediaURL, source: mediaSource ?? "api", status: status, error: error, sha256: sha256)]
            + moreMedia
    }
}
