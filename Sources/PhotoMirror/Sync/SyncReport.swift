/// What a sync did, per feed. Encoded as the `sync --json` summary.
public struct FeedReport: Sendable, Codable, Equatable {
    public var url: String
    public var title: String
    public var kind: String?
    public var manifest: String?
    public var items = 0
    public var ok = 0
    public var failed = 0
    public var noImage = 0
    /// Items whose image was left out on purpose (`--min-bytes`, `--min-pixels`); not failures.
    public var skipped = 0
    public var downloaded = 0
    public var reused = 0
    /// Images after an item's first that failed (the item's status is its first image's).
    public var moreImagesFailed = 0
    /// Set when the feed itself could not be fetched or parsed.
    public var error: String?
    /// What had to be repaired to read the feed; it still synced.
    public var warnings: [String] = []
    /// The feed answered 304 to its stored validators: not downloaded nor parsed again, its
    /// stored items published as they were.
    public var unchanged = false
    /// The feed answered 410 Gone: `watch` polls it no more until a sync by hand brings it back.
    public var gone = false
    /// Not to be polled before this time (Unix seconds): what the feed asked for (RSS `<ttl>`,
    /// Cache-Control, Expires, Retry-After); nil when it asked nothing.
    public var pollAfter: Double?

    enum CodingKeys: String, CodingKey {
        case url, title, kind, manifest, items, ok, failed, skipped, downloaded, reused, error, warnings, unchanged, gone
        case pollAfter = "poll_after"
        case noImage = "no_image"
        case moreImagesFailed = "more_images_failed"
    }

    public init(url: String, title: String) {
        self.url = url
        self.title = title
    }
}

/// An image decoded from a damaged file (its thumbnails show the part that decodes), for a
/// `warning:` line on stderr; the manifests say it too.
public struct ImageWarning: Sendable, Equatable {
    public var mediaURL: String
    public var warning: String
}

/// An item that failed, for the per-item lines a person reads on stderr.
public struct ItemFailure: Sendable, Equatable {
    public var feedURL: String
    public var itemID: String
    public var mediaURL: String?
    public var reason: String
}

public struct SyncReport: Sendable {
    /// The report as printed: feed URLs without user info or secret parameters (`URLRedaction`).
    public var redacted: SyncReport {
        var copy = self
        copy.feeds = feeds.map { feed in
            var feed = feed
            feed.url = Redaction.url(feed.url)
            return feed
        }
        copy.failures = failures.map { failure in
            var failure = failure
            failure.feedURL = Redaction.url(failure.feedURL)
            return failure
        }
        return copy
    }

    public var feeds: [FeedReport]
    public var failures: [ItemFailure]
    /// The images this sync decoded from damaged files.
    public var imageWarnings: [ImageWarning] = []
    /// Where the gallery page is: an absolute path in the cache folder, or its object's URL
    /// (`s3://bucket/prefix/index.html`).
    public var galleryPath: String
    /// Bytes of images downloaded in this sync.
    public var bytesDownloaded: Int

    public var feedFailed: Bool { feeds.contains { $0.error != nil } }
    /// Some image failed: an item's own, or one of its further images.
    public var itemsFailed: Bool { feeds.contains { $0.failed > 0 || $0.moreImagesFailed > 0 } }
}

/// Live counts for a progress display.
public struct SyncProgress: Sendable {
    /// The distinct image URLs of the synced feeds: counted only for a sync given a progress
    /// closure (0 otherwise), before the first image.
    public var total = 0
    public var done = 0
    public var failed = 0
    /// Fetched and left out on purpose (`--min-bytes`, `--min-pixels`).
    public var skipped = 0
    public var downloaded = 0
    public var reused = 0
    public var bytes = 0
}
