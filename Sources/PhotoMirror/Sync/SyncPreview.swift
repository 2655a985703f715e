import Foundation
import PMCache
import PMFeeds
import PMImaging
import PMLoading

/// `sync --dry-run`: fetches the feeds as a sync would, chooses their items and images the same
/// way, and says which images a sync would download and store, and what a prune would evict,
/// writing nothing. The index, when there is one, is read as an immutable snapshot and the cache
/// is opened in no other way: no folder, index, lock, `-wal` or `-shm` is made.
public struct SyncPreviewer: Sendable {
    public let cacheRoot: String
    public let options: SyncOptions
    public var stages = SyncStages.standard
    /// Where the cache's files live, for the prune's estimate.
    public var store = StoreChoice.folder

    public init(cacheRoot: String, options: SyncOptions) {
        self.cacheRoot = cacheRoot
        self.options = options
    }

    /// What a sync would do.
    public struct Preview: Sendable {
        public struct Feed: Sendable {
            public var url: String
            public var title = ""
            public var kind: String?
            public var items = 0
            /// Images of the feed's chosen items the index does not hold: to download.
            public var toDownload: [String] = []
            /// Images of the feed's chosen items the index holds.
            public var cached = 0
            public var error: String?
        }

        public var feeds: [Feed] = []
        /// Every image to download, each once, in the order the feeds name them.
        public var downloads: [String] = []
        /// Thumbnail sizes made of each download.
        public var sizes: [ThumbnailSize] = []
        /// What a prune to the size limit would evict from the cache as it stands (the downloads'
        /// sizes are not known before they are fetched); nil without a limit or a cache.
        public var prune: PruneReport?
    }

    public func run(feedURLs: [String]) async throws(CacheCommandError) -> Preview {
        let layout = CacheLayout(root: cacheRoot)
        var index: PhotoIndex?
        if FileManager.default.fileExists(atPath: layout.indexPath) {
            do {
                index = try PhotoIndex(snapshotOf: layout.indexPath)
            } catch {
                throw CacheCommandError(description: "\(layout.indexPath): \(error)")
            }
        }
        let loading = options.loading
        let curl = stages.transport(loading)
        defer { curl.shutdown() }
        let hosts = HostGate(limits: loading.hostLimits)
        let fetcher = FeedFetcher(loader: RetryingLoader(base: PoliteLoader(base: curl, gate: hosts), policy: loading.retry),
                                  options: loading, index: nil)
        var preview = Preview(sizes: options.imaging.sizes)
        var planned = Set<String>()
        var seen = Set<String>()
        for url in feedURLs where seen.insert(url).inserted {
            var feed = Preview.Feed(url: Redaction.url(url))
            do {
                var parsed = try await read(fetcher, url)
                parsed.limitImages(perItem: loading.maxImagesPerItem)
                let items = loading.selection.choose(parsed.items)
                (feed.title, feed.kind, feed.items) = (parsed.title, parsed.kind.rawValue, items.count)
                let urls = items.flatMap { $0.media.map(\.url) }
                try? await index?.gatherEvictedMedia(ofFeed: CacheLayout.feedKey(url: url))
                let known = (try? await index?.knownHashes(of: urls)) ?? [:]
                for media in urls {
                    if known[media] != nil {
                        feed.cached += 1
                    } else if planned.insert(media).inserted {
                        feed.toDownload.append(media)
                        preview.downloads.append(media)
                    }
                }
            } catch {
                feed.error = error.description
            }
            preview.feeds.append(feed)
        }
        preview.prune = await pruneEstimate(index: index)
        return preview
    }

    private func read(_ fetcher: FeedFetcher, _ url: String) async throws(FeedFetchError) -> ParsedFeed {
        let fetched = try await fetcher.fetch(url)
        do {
            return try fetched.read()
        } catch {
            throw FeedFetchError(description: "\(Redaction.url(url)): \(error)")
        }
    }

    /// A dry-run prune of the cache as it stands, when a size limit applies; best effort.
    private func pruneEstimate(index: PhotoIndex?) async -> PruneReport? {
        guard let limit = options.cache.maxSize, let index else { return nil }
        let layout = CacheLayout(root: cacheRoot)
        let (storage, shutdown) = store.standalone(layout: layout)
        defer { shutdown() }
        var run = PruneRun(layout: layout, storage: storage, index: index, writer: nil)
        run.garbageGrace = options.cache.garbageGrace
        return try? await run.run(.prune(limit: limit, maxAge: nil))
    }
}
