import PMCache
import PMLoading

/// What a sync runs on, each stage with its default beside it (as Nuke's
/// `ImagePipeline.Configuration` holds its data loader and data cache): the HTTP transport under
/// the retries, host limits and gates, and the storage of the cache's files. Tests give an
/// in-memory pair; a new backend is a new `CacheStorage`.
public struct SyncStages: Sendable {
    /// Makes the transport for a sync's loading options.
    public var transport: @Sendable (LoadingOptions) -> any HTTPTransport
    /// Makes the storage for a cache's layout (its index and lock stay in the folder), given the
    /// sync's transport with its retries, which an object store's requests share.
    public var storage: @Sendable (CacheLayout, any HTTPLoading) -> any CacheStorage

    public init(transport: @escaping @Sendable (LoadingOptions) -> any HTTPTransport,
                storage: @escaping @Sendable (CacheLayout, any HTTPLoading) -> any CacheStorage) {
        self.transport = transport
        self.storage = storage
    }

    /// libcurl with `--jobs` connections and the cache folder.
    public static let standard = standard(store: .folder)

    /// libcurl with `--jobs` connections and `store`. libcurl caps connections to one host at
    /// `--per-host`, except with an object store, whose uploads are not feed hosts' to limit:
    /// the image hosts are then held to `--per-host` by `HostGate` alone.
    public static func standard(store: StoreChoice) -> SyncStages {
        SyncStages(
            transport: { loading in
                CurlLoader(userAgent: loading.userAgent ?? CurlLoader.defaultUserAgent, maxConnections: loading.jobs,
                           maxPerHost: store == .folder ? loading.perHost : max(loading.perHost, loading.jobs))
            },
            storage: { layout, loader in store.storage(layout: layout, loader: loader) })
    }
}
