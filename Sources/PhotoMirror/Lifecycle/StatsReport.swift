/// `photomirror stats`: what the cache holds. Encoded as `stats --json`.
public struct StatsReport: Sendable, Codable, Equatable {
    public struct Files: Sendable, Codable, Equatable {
        public var count: Int
        /// Sum of the files' lengths, as the index records them.
        public var bytes: Int
    }

    /// Disk use by kind, as `du` counts it (allocated blocks, folders included).
    public struct Disk: Sendable, Codable, Equatable {
        public var total = 0
        public var originals = 0
        public var thumbnails = 0
        /// `index.sqlite` and its WAL files.
        public var index = 0
        /// Manifests and gallery pages.
        public var pages = 0
        /// Everything else: folders at the top, the lock, `config.json`, garbage.
        public var other = 0
    }

    /// A storage other writers share: what this writer owns (the files its rows name, its feeds'
    /// pages, the root pages: what its size limit covers) and what the others hold (their files,
    /// unreferenced objects in their grace period), in bytes.
    public struct Shared: Sendable, Codable, Equatable {
        public var owned: Int
        public var others: Int
        /// Writers whose heartbeat is live now, this one's not counted (stats has none).
        public var liveWriters: Int

        enum CodingKeys: String, CodingKey {
            case owned, others
            case liveWriters = "live_writers"
        }
    }

    public struct LastSync: Sendable, Codable, Equatable {
        public var at: String
        public var media: Int
        public var downloaded: Int
        public var reused: Int
        public var failed: Int
        /// reused / (reused + downloaded); nil when nothing was mirrored.
        public var hitRatio: Double?

        enum CodingKeys: String, CodingKey {
            case at, media, downloaded, reused, failed
            case hitRatio = "hit_ratio"
        }
    }

    public var feeds = 0
    public var items = 0
    public var itemsByStatus: [String: Int] = [:]
    public var mediaURLs = 0
    public var originals = Files(count: 0, bytes: 0)
    public var thumbnails = Files(count: 0, bytes: 0)
    public var disk = Disk()
    /// Only for a storage other writers share.
    public var shared: Shared?
    public var oldestAccess: String?
    public var newestAccess: String?
    public var lastSync: LastSync?
    /// The cache's `max_size` setting, if any.
    public var maxSize: Int?

    enum CodingKeys: String, CodingKey {
        case feeds, items, originals, thumbnails, disk, shared
        case itemsByStatus = "items_by_status", mediaURLs = "media_urls"
        case oldestAccess = "oldest_access", newestAccess = "newest_access"
        case lastSync = "last_sync", maxSize = "max_size"
    }
}
