/// What a sync needs to leave an unchanged feed alone: the digest of the rows its manifest and
/// pages were last written from (kept in `meta` as `content:<feed-key>`), and a way to record
/// the sync itself without rewriting those rows.
extension PhotoIndex {
    static func contentKey(feedKey: String) -> String { "content:\(feedKey)" }

    public func contentDigest(feedKey: String) throws(IndexError) -> String? {
        try meta(Self.contentKey(feedKey: feedKey))
    }

    /// The feeds whose documents a sync has written at least once: those with a digest.
    public func publishedFeedKeys() throws(IndexError) -> Set<String> {
        let prefix = Self.contentKey(feedKey: "")
        let query = try connection.statement("SELECT substr(key, ?) FROM meta WHERE key GLOB ?")
        try query.bind(.integer(Int64(prefix.utf8.count + 1)), .text(prefix + "*"))
        var keys = Set<String>()
        while try query.step() { if let key = query.text(0) { keys.insert(key) } }
        return keys
    }

    /// Call only after the feed's manifest and pages are in place: a digest names files
    /// written from these rows.
    public func setContentDigest(_ digest: String, feedKey: String) throws(IndexError) {
        try setMeta([Self.contentKey(feedKey: feedKey): digest])
    }

    /// A sync that found the feed as it was: its time (what the root page shows, and what
    /// eviction reads as "listed at") and the server's validators; items stay as they are.
    public func markSynced(feedKey: String, at time: Double, etag: String?, lastModified: String?) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            try connection.statement("UPDATE feeds SET last_sync = ?, etag = ?, last_modified = ? WHERE key = ?")
                .bind(.real(time), .optional(etag), .optional(lastModified), .text(feedKey)).run()
        }
    }
}
