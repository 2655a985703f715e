import PMCache
import PMLoading

/// What a sync runs on, each stage with its default beside it (as Nuke's
/// `ImagePipeline.Configuration` holds its data loader and data cache): the HTTP transport under
/// the retries, host limits and gates, and the storage of the cache's files. Tests give an
/// in-memory pair; a new backend is a new `CacheStorage`.
public struct SyncStages: Sendable {
    /// Makes the transport for a sync's loading options.
    public var transport: @Sendable (LoadingOptions) -> any HTTPTransport
    /// Makes the storage for a cache's layout (its index and lock stay in the folder).
    public var storage: @Sendable (CacheLayout) -> any CacheStorage

    public init(transport: @escaping @Sendable (LoadingOptions) -> any HTTPTransport,
                storage: @escaping @Sendable (CacheLayout) -> any CacheStorage) {
        self.transport = transport
        self.storage = storage
    }

    /// libcurl with `--jobs` connections (`--per-host` to one host), and the cache folder.
    public static let standard = SyncStages(
        transport: { loading in
            CurlLoader(userAgent: loading.userAgent ?? CurlLoader.defaultUserAgent, maxConnections: loading.jobs,
                       maxPerHost: loading.perHost)
        },
        storage: { LocalStorage(layout: $0) })
}
