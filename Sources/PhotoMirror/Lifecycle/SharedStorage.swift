import PMCache

/// How a writer collects garbage and counts its size in a storage other writers share, where its
/// lock guards nothing and "no row of mine names it" is not "nobody needs it" (as Git's
/// `gc.pruneExpire` and restic reason). Pure.
///
/// - A file no row names is deleted only once it is older than `grace` by the storage's own
///   clock (an object's Last-Modified), and only while no other writer is live: another writer
///   may have just put it, or found it in its listing, and not yet published the manifest that
///   names it. A race lost costs storage, never pictures.
/// - A writer's size limit covers what it owns: the files its rows name, its own feeds' pages,
///   the shared root pages, and garbage old enough to collect. Other writers' files are theirs.
///
/// In a cache folder the writers' lock makes "no row names it" exact: everything is collected.
struct SharedStorage: Sendable {
    var isShared: Bool
    /// Seconds an unreferenced object is kept after it was last written.
    var grace: Double

    static let defaultGrace = 24 * 3600.0

    /// The garbage old enough to delete (all of it in a folder); the deletion itself waits for
    /// no other writer to be live (`HeartbeatKeeper.removeUnlessOthersLive`).
    func collectable(_ garbage: [CachedFile], scan: DiskScan, now: Double) -> [CachedFile] {
        guard isShared else { return garbage }
        return garbage.filter { file in scan.modified[file.path].map { now - $0 >= grace } ?? false }
    }

    /// The files of `scan` this writer owns, and the bytes of the rest (other writers' files and
    /// garbage still in its grace period). All of it in a folder.
    func owned(_ scan: DiskScan, images: EvictionImages, ownFeedKeys: Set<String>,
               collectable: [CachedFile]) -> (scan: DiskScan, othersBytes: Int) {
        guard isShared else { return (scan, 0) }
        var mine = Set<CachePath>()
        images.forEachFile { mine.insert($0) }
        for file in collectable { mine.insert(file.path) }
        let kept = scan.keeping { path in
            if mine.contains(path) { return true }
            if path.isOriginal != nil { return false }
            return Self.isOwnPage(path.description, ownFeedKeys: ownFeedKeys)
        }
        return (kept, scan.usage - kept.usage)
    }

    /// A published file of one of `ownFeedKeys`' feeds, or a shared page at the top (the root
    /// page, its icon): not the content folders, another feed's folder or a heartbeat.
    static func isOwnPage(_ path: String, ownFeedKeys: Set<String>) -> Bool {
        let parts = path.split(separator: "/", maxSplits: 2)
        guard parts.count > 1 else { return true }
        if parts[0] == Substring(CacheLayout.feedsFolder) { return parts.count == 3 && ownFeedKeys.contains(String(parts[1])) }
        return !CacheLayout.contentFolders.contains(String(parts[0])) && parts[0] != Substring(WriterHeartbeat.folder)
    }
}
