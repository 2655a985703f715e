import Foundation
import CSQLite

/// The SQLite index of the cache. An actor: its one connection never leaves it, and every
/// write that names files happens after those files were renamed into place.
public actor PhotoIndex {
    let connection: SQLiteConnection
    /// Tables whose indexes lost so many entries to `dropRows` that `checkpoint` rebuilds them.
    var tablesToRepack: Set<String> = []
    /// The feeds whose evicted URLs `temp.evicted_media` holds already (`gatherEvictedMedia`).
    var evictedGathered = EvictedGathering()
    /// The page cache's bound and its applied size (PhotoIndex+Memory.swift); nil: SQLite's default.
    var pageCache: PageCacheFit?

    public init(path: String) throws(IndexError) {
        let connection = try SQLiteConnection(path: path)
        self.connection = connection
        readMode = nil
        if try Self.isNewFile(connection) { try connection.execute(IndexSchema.newFilePragmas) }
        try connection.execute(IndexSchema.pragmas)
        if !Durability.enabled { try connection.execute("PRAGMA synchronous=NORMAL") }
        // One transaction: one commit (one WAL sync) for a new cache's tables, not one per table.
        try connection.transaction { () throws(IndexError) in try connection.execute(IndexSchema.statements) }
        try IndexMigration.run(connection)
        try IndexMigration.enableIncrementalVacuum(connection)
        try connection.execute(Self.evictedMediaTable)
    }

    /// Opens an existing index for reading only (`verify`, `stats`, `prune --dry-run`): no schema
    /// statements, no write lock, so in WAL mode it never waits for a writer. In a folder the
    /// user cannot write it may be read `immutable` (`readMode`).
    public init(readingOnly path: String) throws(IndexError) {
        try self.init(readingOnly: path, attempts: IndexReadMode.attempts(forIndexAt: path))
    }

    /// A writer's second connection, for its own reads beside its writes (a sync publishing two
    /// feeds at once): `shared` only, which reads the `-wal` and so sees every commit of the
    /// writer's connection; nothing here falls back to a mode that would not.
    public init(readingBesideWriter path: String) throws(IndexError) {
        try self.init(readingOnly: path, attempts: [.shared])
    }

    /// Opens the index as an immutable snapshot (`sync --dry-run`): the main file alone, so not
    /// even a `-wal`, `-shm` or lock is made beside it; a live writer's latest commits are unseen.
    public init(snapshotOf path: String) throws(IndexError) {
        try self.init(readingOnly: path, attempts: [.immutable])
    }

    /// Reads the index in the first of `attempts` that works (tests name the mode).
    init(readingOnly path: String, attempts: [IndexReadMode]) throws(IndexError) {
        (connection, readMode) = try Self.openForReading(path, attempts: attempts)
    }

    /// How a read-only index was opened; nil for a writer's.
    public nonisolated let readMode: IndexReadMode?

    /// The first mode of `IndexReadMode.attempts` that reads the index. SQLite reports a
    /// missing `-shm` only on the first read, which `shadowForReading` makes.
    private static func openForReading(_ path: String, attempts: [IndexReadMode]) throws(IndexError)
        -> (SQLiteConnection, IndexReadMode)
    {
        var failure: IndexError?
        for mode in attempts {
            do {
                let connection = try SQLiteConnection(readingAt: path, mode: mode)
                try IndexMigration.shadowForReading(connection)
                try connection.execute(Self.evictedMediaTable)
                // Its temp views made, a connection that may write changes nothing more.
                if mode == .recovering { try connection.execute("PRAGMA query_only=1") }
                return (connection, mode)
            } catch where IndexReadMode.writeAccessWasMissing(error) && mode != attempts.last {
                failure = error
            }
        }
        throw failure ?? IndexError(code: SQLITE_CANTOPEN, message: "\(path): cannot open", path: path)
    }

    /// Whether the file has no page yet: an index being created (or an empty file SQLite
    /// takes as one).
    private static func isNewFile(_ connection: SQLiteConnection) throws(IndexError) -> Bool {
        let query = try connection.statement("PRAGMA page_count")
        var pages = 0
        while try query.step() { pages = query.int(0) }
        return pages == 0
    }

    /// Ends the read transaction that a statement left on a row holds open, so the next read
    /// sees the latest commit; a read-only connection that lives across another connection's
    /// commits calls it between the reads that must see them.
    public func endReads() {
        connection.resetStatements()
    }

    // MARK: Media lookups

    /// What the cache holds for `url`: the original's hash and its stored thumbnails by size.
    public func media(for url: String) throws(IndexError) -> CachedMedia? {
        let query = try connection.statement("""
            SELECT sha256, etag, last_modified FROM resources WHERE url = ?1 AND sha256 <> ''
            UNION ALL SELECT sha256, NULL, NULL FROM temp.evicted_media WHERE url = ?1
            """)
        try query.bind(.text(url))
        guard try query.step(), let sha256 = query.text(0) else { return nil }
        let etag = query.text(1), lastModified = query.text(2)
        return CachedMedia(sha256: sha256, original: try original(sha256: sha256),
                           thumbnails: try thumbnails(of: sha256), etag: etag, lastModified: lastModified)
    }

    public func original(sha256: String) throws(IndexError) -> OriginalRecord? {
        let query = try connection.statement(
            "SELECT sha256, path, bytes, format, stored_at, last_access, warning, placeholder FROM originals WHERE sha256 = ?")
        try query.bind(.text(sha256))
        guard try query.step() else { return nil }
        var original = Self.original(from: query)
        original.warning = query.text(6)
        original.placeholder = query.text(7)
        return original
    }

    public func thumbnails(of sha256: String) throws(IndexError) -> [String: ThumbnailRecord] {
        let query = try connection.statement("""
            SELECT original_sha256, size, bytes, sha256, stored_at, last_access
            FROM thumbnails WHERE original_sha256 = ?
            """)
        try query.bind(.text(sha256))
        var result: [String: ThumbnailRecord] = [:]
        while try query.step() {
            let record = Self.thumbnail(from: query)
            result[record.size] = record
        }
        return result
    }

    // MARK: Recording fetched media

    /// Records a fetched resource with its original (if kept) and thumbnails, in one transaction.
    /// Existing rows for the same hash are kept (content-addressed: same bytes, same files).
    public func record(resource: ResourceRecord, original: OriginalRecord?, thumbnails: [ThumbnailRecord]) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            try writeRecord(resource: resource, original: original, thumbnails: thumbnails)
        }
    }

    /// Gives a stored original that has no placeholder (stored before schema 6) this one; an
    /// original whose row is gone gets none (no row is made for a file that may be gone too).
    func fillPlaceholder(_ placeholder: String, sha256: String) throws(IndexError) {
        try connection.statement("UPDATE originals SET placeholder = ? WHERE sha256 = ? AND placeholder IS NULL")
            .bind(.text(placeholder), .text(sha256)).run()
    }

    /// `record`'s rows, inside the caller's transaction (see `apply(_:)` for batches).
    func writeRecord(resource: ResourceRecord, original: OriginalRecord?, thumbnails: [ThumbnailRecord]) throws(IndexError) {
        if let original {
            try connection.statement("""
                INSERT INTO originals(sha256, path, bytes, format, stored_at, last_access, warning, placeholder)
                VALUES(?,?,?,?,?,?,?,?)
                ON CONFLICT(sha256) DO UPDATE SET last_access = excluded.last_access,
                    placeholder = coalesce(originals.placeholder, excluded.placeholder)
                """).bind(.text(original.sha256), .text(original.path), .integer(Int64(original.bytes)),
                          .text(original.format), .real(original.storedAt), .real(original.lastAccess),
                          .optional(original.warning), .optional(original.placeholder)).run()
        }
        for thumbnail in thumbnails {
            try connection.statement("""
                INSERT INTO thumbnails(original_sha256, size, bytes, sha256, stored_at, last_access)
                VALUES(?,?,?,?,?,?)
                ON CONFLICT(original_sha256, size) DO UPDATE SET last_access = excluded.last_access
                """).bind(.text(thumbnail.originalSHA256), .text(thumbnail.size),
                          .integer(Int64(thumbnail.bytes)), .text(thumbnail.sha256),
                          .real(thumbnail.storedAt), .real(thumbnail.lastAccess)).run()
        }
        try connection.statement("""
            INSERT INTO resources(url, sha256, etag, last_modified, content_type, fetched_at, last_access)
            VALUES(?,?,?,?,?,?,?)
            ON CONFLICT(url) DO UPDATE SET sha256 = excluded.sha256, etag = excluded.etag,
                last_modified = excluded.last_modified, content_type = excluded.content_type,
                fetched_at = excluded.fetched_at, last_access = excluded.last_access
            """).bind(.text(resource.url), .text(resource.sha256), .optional(resource.etag),
                      .optional(resource.lastModified), .optional(resource.contentType),
                      .real(resource.fetchedAt), .real(resource.lastAccess)).run()
    }

    /// Marks a cached media URL as used now: its resource row and its original's. The
    /// thumbnails keep theirs (what `serve` hands out moves them): an image is as recent as the
    /// most recent of its rows, and a thumbnail left without its original is either listed (its
    /// feed's sync then dates it) or shown by no page. Their table is in hash order, so touching
    /// it would rewrite a page for nearly every image a sync lists.
    public func touch(url: String, sha256: String, at time: Double) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            try writeTouches(urls: [url], sha256s: [sha256], at: time)
        }
    }

    /// `touch`'s updates, inside the caller's transaction: two statements for any number of URLs.
    func writeTouches(urls: [String], sha256s: [String], at time: Double) throws(IndexError) {
        let urlList = JSONStringList.encode(urls), hashList = JSONStringList.encode(sha256s)
        try connection.statement("UPDATE resources SET last_access = ? WHERE url IN (SELECT value FROM json_each(?))")
            .bind(.real(time), .text(urlList)).run()
        try connection.statement("UPDATE temp.evicted_media SET last_access = ? WHERE url IN (SELECT value FROM json_each(?))")
            .bind(.real(time), .text(urlList)).run()
        try connection.statement("UPDATE originals SET last_access = ? WHERE sha256 IN (SELECT value FROM json_each(?))")
            .bind(.real(time), .text(hashList)).run()
    }


    static func original(from row: Statement) -> OriginalRecord {
        OriginalRecord(sha256: row.text(0) ?? "", path: row.text(1) ?? "", bytes: row.int(2),
                       format: row.text(3) ?? "", storedAt: row.double(4), lastAccess: row.double(5))
    }

    static func thumbnail(from row: Statement) -> ThumbnailRecord {
        ThumbnailRecord(originalSHA256: row.text(0) ?? "", size: row.text(1) ?? "", bytes: row.int(2),
                        sha256: row.text(3) ?? "", storedAt: row.double(4), lastAccess: row.double(5))
    }
}

/// The cache's answer for one media URL.
public struct CachedMedia: Sendable, Equatable {
    public var sha256: String
    public var original: OriginalRecord?
    public var thumbnails: [String: ThumbnailRecord]
    public var etag: String?
    public var lastModified: String?
}
