import Foundation
import PMCache

/// Whether a folder is a cache, and whether its index is there. A folder that holds a cache's
/// files (`originals/`, `thumbs/` or `feeds/`) without `index.sqlite` is a cache whose index
/// was lost, to be rebuilt by `verify --repair`, not an empty folder: a sync there must not
/// start a new index and download every image again.
enum IndexPresence {
    case present
    /// No index, but the cache's files are there.
    case lost
    /// Only the writer's lock: a first sync stopped before it created the index. An empty
    /// cache, which verifies (nothing can be wrong in it) and which the next sync starts.
    case unstarted
    /// Neither: no cache here (yet).
    case none

    init(_ layout: CacheLayout) {
        let files = FileManager.default
        if files.fileExists(atPath: layout.indexPath) {
            self = .present
        } else if Self.cacheFolders.contains(where: { files.fileExists(atPath: layout.absolute($0)) }) {
            self = .lost
        } else if files.fileExists(atPath: layout.lockPath) {
            self = .unstarted
        } else {
            self = .none
        }
    }

    static let cacheFolders = [CacheLayout.originalsFolder, CacheLayout.thumbnailsFolder, CacheLayout.feedsFolder]

    /// What a command that needs the index says when it was lost.
    static func lostMessage(_ layout: CacheLayout) -> String {
        "\(layout.indexPath) is missing, but the folder holds a cache's files; "
            + "run `photomirror verify --repair` to rebuild the index from them"
    }

    static func noCacheMessage(_ layout: CacheLayout) -> String {
        "\(layout.root): no photomirror cache here (no \(CacheLayout.indexFile))"
    }
}
