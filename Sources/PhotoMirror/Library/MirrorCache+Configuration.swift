import Foundation

extension MirrorCache {
    /// What `photomirror sync`'s flags set, as one value: sizes, concurrency, politeness,
    /// limits, and the store that holds the cache's files.
    public struct Configuration: Sendable {
        /// Downloading, thumbnailing and cache limits (`SyncOptions`' defaults are the command's).
        public var options = SyncOptions()
        /// `s3://BUCKET[/PREFIX]` for a cache whose files live in a bucket (`--store`); nil uses
        /// the store the cache recorded, else the folder.
        public var store: String?
        /// Where the store's credentials, region and endpoint come from (the AWS SDKs' variables).
        public var environment = ProcessInfo.processInfo.environment

        public init(options: SyncOptions = SyncOptions(), store: String? = nil) {
            self.options = options
            self.store = store
        }

        /// The thumbnail sizes every synced image gets (default 40×40).
        public var sizes: [ThumbnailSize] {
            get { options.imaging.sizes }
            set { options.imaging.sizes = newValue }
        }

        /// Transfers in flight at once (default 16), of which `perHost` to one host (default 6).
        public var jobs: Int {
            get { options.loading.jobs }
            set { options.loading.jobs = newValue }
        }

        public var perHost: Int {
            get { options.loading.perHost }
            set { options.loading.perHost = newValue }
        }

        /// The `User-Agent` sent with every request (nil: photomirror's own).
        public var userAgent: String? {
            get { options.loading.userAgent }
            set { options.loading.userAgent = newValue }
        }

        /// The cache's size limit in bytes: a sync that goes over it prunes (`--max`).
        public var maxSize: Int? {
            get { options.cache.maxSize }
            set { options.cache.maxSize = newValue }
        }
    }
}
