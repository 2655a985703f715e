import Foundation
import PMCache

/// Whether a folder is a cache, and whether its index is there. A folder that holds a cache's
/// files (`originals/`, `thumbs/` or `feeds/`) without `index.sqlite` is a cache whose index
/// was lost, to be rebuilt by `verify --repair`, not an empty folder: a sync there must not
/// start a new index and download every image again.
enum IndexPresence {
    case present
    /// A file SQLite would take for a new, empty database (0 bytes, or a header and no table),
    /// in a folder that holds a cache's files: damage like any other, never a fresh start.
    /// Opened for writing, it would get an empty schema, and the next sync would download every
    /// image again.
    case damaged(IndexError)
    /// No index, but the cache's files are there.
    case lost
    /// Only the writer's lock (and perhaps an empty index, or one with a header and no table):
    /// a first sync stopped before its index's tables were committed. An empty cache, which
    /// verifies (nothing can be wrong in it) and which the next sync starts.
    case unstarted
    /// Neither: no cache here (yet).
    case none

    init(_ layout: CacheLayout) {
        let files = FileManager.default
        let holdsCacheFiles = Self.cacheFolders.contains { files.fileExists(atPath: layout.absolute($0)) }
        if files.fileExists(atPath: layout.indexPath) {
            // An empty file, or one with no table, beside none of a cache's files is a first
            // sync stopped before its tables were committed: nothing to lose, the next sync
            // starts it.
            switch (Self.schemalessIndexError(layout), holdsCacheFiles) {
            case (let error?, true): self = .damaged(error)
            case (_?, false): self = .unstarted
            case (nil, _): self = .present
            }
        } else if holdsCacheFiles {
            self = .lost
        } else if files.fileExists(atPath: layout.lockPath) {
            self = .unstarted
        } else {
            self = .none
        }
    }

    static let cacheFolders = [CacheLayout.originalsFolder, CacheLayout.thumbnailsFolder, CacheLayout.feedsFolder]

    /// Why the index file holds no schema (0 bytes, or a header and no table), or nil when it
    /// may hold one. Only a small file is opened to look: a schema is committed with a cache's
    /// first batch, and the file grows past a few pages once the log is checkpointed.
    private static func schemalessIndexError(_ layout: CacheLayout) -> IndexError? {
        var status = stat()
        guard stat(layout.indexPath, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        if status.st_size == 0 { return emptyIndexError(layout) }
        guard status.st_size <= maxSizeProbed, PhotoIndex.holdsNoTables(path: layout.indexPath) else { return nil }
        return .notADatabase(path: layout.indexPath, "holds no table: its header was written, its schema never committed")
    }

    private static let maxSizeProbed = 64 << 10

    static func emptyIndexError(_ layout: CacheLayout) -> IndexError {
        .notADatabase(path: layout.indexPath, "file is empty (0 bytes), not a database")
    }

    /// What a command that needs the index says when it was lost.
    static func lostMessage(_ layout: CacheLayout) -> String {
        "\(layout.indexPath) is missing, but the folder holds a cache's files; "
            + "run `photomirror verify --repair` to rebuild the index from them"
    }

    static func noCacheMessage(_ layout: CacheLayout) -> String {
        "\(layout.root): no photomirror cache here (no \(CacheLayout.indexFile))"
    }
}
