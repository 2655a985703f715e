import PMCache

/// What a sync does to its storage before it writes: the storage is there (only a cache's first
/// sync creates a missing bucket), the writer is announced to others sharing it, what the storage
/// holds is listed, and then the index is held to that listing. An index row whose file the
/// listing lacks (deleted by hand, by a lifecycle rule, by a writer of an older version) is
/// dropped, so this sync stores the image again, downloading it if need be, instead of
/// publishing pages that point at nothing; the feeds that named it are republished at once, so
/// those this sync does not list show the image as evicted until their next sync.
struct StorageCheck: Sendable {
    let cache: OpenCache

    /// The writer's heartbeat, in a storage writers share.
    func prepare() async throws -> HeartbeatKeeper? {
        let storage = cache.storage
        if storage.sharedByWriters { try await storage.ensureExists(mayCreate: try await cache.index.feeds().isEmpty) }
        // Announced, then listed once no other writer is deleting: a prune by another writer
        // either sees this heartbeat and deletes nothing, or finished deleting before the listing.
        let heartbeat = try await HeartbeatKeeper.start(storage, command: "sync")
        do {
            if let heartbeat { try await WriterHeartbeat.waitWhileOthersDelete(in: storage, except: heartbeat.id) }
            try await storage.prepare()
            if storage.sharedByWriters { try await dropUnlistedRows() }
        } catch {
            await heartbeat?.finish()
            throw error
        }
        return heartbeat
    }

    /// Drops the rows of indexed files the listing lacks and republishes their feeds; returns
    /// how many rows.
    @discardableResult
    func dropUnlistedRows() async throws -> Int {
        let rows = try await cache.index.allFiles()
        let paths = rows.originals.map(\.path) + rows.thumbnails.map(\.path)
        let missing = Set(cache.storage.unlisted(paths))
        guard !missing.isEmpty else { return 0 }
        let originals = rows.originals.filter { missing.contains($0.path) }.map { ImageHash($0.sha256) }
        let thumbnails = rows.thumbnails.filter { missing.contains($0.path) }
            .map { (sha256: ImageHash($0.originalSHA256), size: Optional($0.size)) }
        let dropped = try await cache.index.dropRows(originals: originals, thumbnails: thumbnails)
        try await cache.index.forgetMediaURLs(of: originals)
        try await Republisher(cache: cache).republish(feedKeys: dropped.feedKeys)
        return originals.count + thumbnails.count
    }
}
