import Foundation
import PMCache

/// Whether a folder is a cache, and whether its index is there. A folder that holds a cache's
/// files (`originals/`, `thumbs/` or `feeds/`) without `index.sqlite` is a cache whose index
/// was lost, to be rebuilt by `verify --repair`, not an empty folder: a sync there must not
/// start a new index and download every image again.
enum IndexPresence {
    case present
    /// A file SQLite would take for a new, empty database (0 bytes), in a folder that holds a
    /// cache's files: damage like any other, never a fresh start. Opened for writing, it would
    /// get an empty schema, and the next sync would download every image again.
    case damaged(IndexError)
    /// No index, but the cache's files are there.
    case lost
    /// Only the writer's lock (and perhaps an empty index): a first sync stopped before it
    /// created the index or wrote its header. An empty cache, which verifies (nothing can be
    /// wrong in it) and which the next sync starts.
    case unstarted
    /// Neither: no cache here (yet).
    case none

    init(_ layout: CacheLayout) {
        let files = FileManager.default
        let holdsCacheFiles = Self.cacheFolders.contains { files.fileExists(atPath: layout.absolute($0)) }
        if files.fileExists(atPath: layout.indexPath) {
            // An empty file beside none of a cache's files is a first sync stopped between
            // creating the index and writing its header: nothing to lose, the next sync starts it.
            switch (Self.isEmptyFile(layout.indexPath), holdsCacheFiles) {
            case (true, true): self = .damaged(Self.emptyIndexError(layout))
            case (true, false): self = .unstarted
            case (false, _): self = .present
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

    private static func isEmptyFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_size == 0
    }

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
