import PMSupport

/// Every effect on a cache's content and published files, behind one seam (as Nuke's
/// `DataCaching` sits beside its `DataCache`): originals and thumbnails put and read by their
/// content-addressed paths, pages and manifests published, files removed and inventoried. The
/// index and the writer's lock stay local (`CacheLayout`), whatever the storage.
///
/// `LocalStorage` is a cache folder; a new backend is one new type conforming here.
public protocol CacheStorage: Sendable {
    /// Where the files are, for messages: a folder, or `s3://bucket/prefix`.
    var location: String { get }

    /// Whether other writers, each with its own index and lock, may add and delete files here at
    /// any moment (an object store's bucket). A folder's writers all take its lock.
    var sharedByWriters: Bool { get }

    /// Makes sure the storage is there before a sync writes to it. `mayCreate` (a cache's first
    /// sync) creates an object store's missing bucket; otherwise a missing bucket is an error
    /// naming it, as it was deleted under the cache.
    func ensureExists(mayCreate: Bool) async throws(StorageError)

    /// Makes the storage ready for a sync: lists what it already holds, where that saves asking
    /// file by file (an object store).
    func prepare() async throws(StorageError)

    /// The paths among `paths` that the listing `prepare` took lacks: files the index names
    /// that are not stored. Empty where no listing was taken.
    func unlisted(_ paths: [String]) -> [String]

    /// Stores content-addressed files atomically. A file already stored under its path has the
    /// same bytes (the name is their hash) and is left alone.
    func putContent(_ files: [ContentFile]) async throws(StorageError)

    /// `putContent` as a blocking call, for storages where it is one (a local folder): the codec
    /// thread that made the files then writes them itself, instead of handing them to the
    /// storage's threads and waiting. Nil where a put is network I/O.
    var blockingContent: (any BlockingContentWriting)? { get }

    /// The bytes stored at `path`, or nil when nothing is.
    func read(_ path: String) async throws(StorageError) -> [UInt8]?

    /// Whether a file is stored at `path`, without reading it.
    func exists(_ path: String) async throws(StorageError) -> Bool

    /// Writes a published document (page, manifest, JSON Feed, icon) from the pieces `write`
    /// appends, atomically. With `.whenChanged` a document whose bytes would not change is left
    /// as it is (its HTTP validators stay). Returns whether the stored document changed. Throws
    /// a `StorageError`, or what `write` throws (nothing is then stored). `write` may await: a
    /// long document is read from the index a page at a time while it is written.
    @discardableResult
    func publish(_ path: String, _ mode: PublishMode, write: (_ append: ([UInt8]) throws -> Void) async throws -> Void) async throws -> Bool

    /// The paths of the files directly in `folder` (`feeds/<key>`), sorted.
    func list(folder: String) async throws(StorageError) -> [String]

    /// Every file called `name` one level below `folder` (`feeds/*/card.json`), sorted: how the
    /// root page finds every feed, whichever writer published it.
    func files(named name: String, below folder: String) async throws(StorageError) -> [String]

    /// Brings every content file put so far to stable storage: the writer calls it before an
    /// index transaction that names new files commits, so that after a power cut no row names
    /// a file whose blocks never reached the disk.
    func makeDurable() async throws(StorageError)

    /// Removes files; one already gone counts as removed.
    func remove(_ paths: [CachePath]) async -> StorageRemoval

    /// Every file the storage holds for the cache, with its size as the storage counts it (a
    /// folder: disk use as `du` counts it, folders included).
    func inventory() async throws(StorageError) -> DiskScan

    /// `inventory()` for a prune: what it needs of the content files (their count and each one's
    /// size by path, `DiskScan.diskBytes(of:)`), in as little memory as the storage allows.
    func compactInventory() async throws(StorageError) -> DiskScan

    /// `scan` after `removed` were removed by this writer (under the lock), measured again as
    /// cheaply as the storage allows.
    func inventory(_ scan: DiskScan, afterRemoving removed: [CachePath]) async throws(StorageError) -> DiskScan
}

extension CacheStorage {
    public var sharedByWriters: Bool { false }
    public func ensureExists(mayCreate: Bool) async throws(StorageError) {}
    public func prepare() async throws(StorageError) {}
    public func unlisted(_ paths: [String]) -> [String] { [] }
    public var blockingContent: (any BlockingContentWriting)? { nil }
    /// A listing's objects are in memory anyway.
    public func compactInventory() async throws(StorageError) -> DiskScan { try await inventory() }
    /// A store whose put returned has the object durably (S3 acknowledges a PUT once stored).
    public func makeDurable() async throws(StorageError) {}
}

/// Stores content files with blocking calls: only on threads made for them, never on the
/// cooperative pool.
public protocol BlockingContentWriting: Sendable {
    /// What `CacheStorage.putContent` does, on the calling thread.
    func putContentNow(_ files: [ContentFile]) throws(StorageError)
}

/// An original or a thumbnail to store.
public struct ContentFile: Sendable {
    public var path: String
    public var bytes: [UInt8]
    /// The MIME type of its format, for storages that serve it (`image/png`).
    public var contentType: String
    /// The bytes' SHA-256 when the caller has it (an original's name), kept beside the object
    /// by storages that can.
    public var sha256: String?

    public init(path: String, bytes: [UInt8], contentType: String, sha256: String? = nil) {
        self.path = path
        self.bytes = bytes
        self.contentType = contentType
        self.sha256 = sha256
    }
}

public enum PublishMode: Sendable {
    /// Always written (a manifest carries its sync time).
    case always
    /// Written only when its bytes differ from what is stored.
    case whenChanged
}

/// What `remove` did.
public struct StorageRemoval: Sendable {
    /// Paths that are gone now (removed, or already missing).
    public var removed: [CachePath] = []
    /// Paths that could not be removed, with the reason.
    public var failures: [String] = []

    public init(removed: [CachePath] = [], failures: [String] = []) {
        self.removed = removed
        self.failures = failures
    }
}

/// A storage operation that failed, naming the path (or key) and the cause.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// No later write to the same storage will succeed either (disk full, read-only, denied):
    /// a sync stops instead of failing every remaining item.
    public var endsTheSync: Bool

    public init(_ description: String, endsTheSync: Bool = false) {
        self.description = description
        self.endsTheSync = endsTheSync
    }

    public init(_ error: FileError) {
        self.init(error.description, endsTheSync: error.endsTheSync)
    }
}
