import Foundation
import PMCache

/// A photomirror cache, for programs: the folder that `photomirror sync` writes (its files in
/// the folder or in an S3-compatible bucket), with the same engine the command runs.
///
/// ```swift
/// let cache = MirrorCache(folder: URL(filePath: "/var/cache/photos"))
/// for try await event in cache.sync(["https://example.org/photos.rss"]) {
///     if case .finished(let report) = event { print(report.feeds.map(\.downloaded), "new images") }
/// }
/// let image = try await cache.image(for: "https://example.org/photos/1.jpg")
/// ```
///
/// A value is cheap and holds no open resource: each call opens the cache, takes the writer's
/// lock when it writes (so it runs beside `photomirror` commands on the same folder exactly as
/// they run beside each other) and closes it again.
public struct MirrorCache: Sendable {
    /// The cache folder: its index, lock and configuration, and its files unless a store holds them.
    public let folder: URL
    /// How syncs download and thumbnail, and where the cache's files live.
    public var configuration: Configuration

    public init(folder: URL, configuration: Configuration = Configuration()) {
        self.folder = folder
        self.configuration = configuration
    }

    /// Syncs `feedURLs` (feed URLs, or paths of local feed files) into the cache, as
    /// `photomirror sync` does: progress while images are fetched, then `.finished` with what
    /// was done. Ending the iteration early, or cancelling the task that iterates, stops the
    /// sync; what it finished is kept and the cache stays consistent.
    public func sync(_ feedURLs: [String]) -> AsyncThrowingStream<SyncEvent, any Error> {
        let root = folder.path, configuration = configuration
        return AsyncThrowingStream { continuation in
            let work = Task {
                do {
                    let store = try await StoreSetting.resolve(given: configuration.store, move: false, records: true,
                                                               cacheRoot: root, environment: configuration.environment)
                    if let record = store.record { try StoreSetting.record(record, cacheRoot: root) }
                    var engine = SyncEngine(cacheRoot: root, options: configuration.options) {
                        continuation.yield(.progress($0))
                    }
                    engine.stages = .standard(store: store.choice)
                    engine.pruned = { continuation.yield(.pruned($0)) }
                    let report = try await engine.run(feedURLs: feedURLs)
                    continuation.yield(.finished(report.redacted))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// What the cache holds for an image URL that a synced feed named, or nil when it holds
    /// nothing for it (never synced, or evicted whole).
    public func image(for url: String) async throws(CacheCommandError) -> CachedImage? {
        try await withIndex { index throws(IndexError) in
            var found = try await index.media(for: url)
            if found == nil { found = try await index.listedMedia(for: url) }
            guard let media = found else { return nil }
            return CachedImage(media.sha256, original: media.original, thumbnails: media.thumbnails.values, in: folder)
        }
    }

    /// What the cache holds for an original whose SHA-256 (lowercase hex) is `sha256`.
    public func image(sha256: String) async throws(CacheCommandError) -> CachedImage? {
        try await withIndex { index throws(IndexError) in
            let original = try await index.original(sha256: sha256)
            let thumbnails = try await index.thumbnails(of: sha256)
            guard original != nil || !thumbnails.isEmpty else { return nil }
            return CachedImage(sha256, original: original, thumbnails: thumbnails.values, in: folder)
        }
    }

    /// Evicts least recently used files until the cache's disk use is at most `maxSize` bytes
    /// (it then trims to 80 % of it, as `photomirror prune --max` does), and images unused for
    /// `maxAge`; with `dryRun`, only says what it would remove.
    public func prune(maxSize: Int? = nil, maxAge: Duration? = nil, dryRun: Bool = false)
        async throws(CacheCommandError) -> PruneReport {
        var pruner = Pruner(cacheRoot: folder.path)
        pruner.maxSize = maxSize
        pruner.maxAge = maxAge.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        pruner.dryRun = dryRun
        pruner.store = try await storeChoice()
        return try await pruner.run()
    }

    /// Checks every indexed file, manifest and page (`deep`: every file's hash too), as
    /// `photomirror verify` does; the report says what is damaged and what is garbage.
    public func verify(deep: Bool = false) async throws(CacheCommandError) -> VerifyReport {
        var verifier = Verifier(cacheRoot: folder.path)
        verifier.deep = deep
        verifier.store = try await storeChoice()
        return try await verifier.run()
    }

    /// The store the cache records (or the configuration names, when they agree).
    private func storeChoice() async throws(CacheCommandError) -> StoreChoice {
        do {
            return try await StoreSetting.resolve(given: configuration.store, move: false, records: false,
                                                  cacheRoot: folder.path, environment: configuration.environment).choice
        } catch {
            throw CacheCommandError(description: error.description)
        }
    }

    func withIndex<T: Sendable>(_ body: (PhotoIndex) async throws(IndexError) -> T) async throws(CacheCommandError) -> T {
        let cache = try ReadOnlyCache(root: folder.path) { _ in }
        do {
            return try await body(cache.index)
        } catch {
            throw CacheCommandError("cannot read the cache index", error)
        }
    }
}
