/// The index's tables. `cache-layout.md` documents them; keep the two in step.
///
/// The index is the single source of truth: a file on disk that no row names is garbage, and a
/// row is only written after the file it names has been renamed into place.
enum IndexSchema {
    /// 2: `items.media_source`, `item_media` (an item's images after the first), and the feed's
    /// own image and warnings on `feeds`. A cache of version 1 is migrated in place when a
    /// writer opens it (`IndexMigration`): columns added, nothing rewritten.
    /// 3: `feed_polls` (when each feed may be polled again, and whether it is gone), a table of
    /// its own so that a feed that never synced can be remembered as gone.
    /// 4: `thumbnails` keyed by (original, size) alone, `WITHOUT ROWID` and without its `path`
    /// (always `CacheLayout.thumbnailPath` of the two): the column and its unique index held
    /// what the key says twice more, and a thumbnail row is now one b-tree entry instead of
    /// three. No index of items by hash, which no query used. Migrated by rewriting
    /// `thumbnails` (`IndexMigration.rewriteThumbnails`).
    /// 5: `originals.warning`, what the decoder said of a damaged file whose thumbnails show the
    /// part that decodes; a column added, nothing rewritten.
    /// 6: `originals.placeholder`, the image's ThumbHash (base64), from which the gallery paints
    /// a blurred placeholder before the thumbnail loads; a column added, nothing rewritten (NULL
    /// for an original stored before it, until its bytes are decoded again).
    static let version = 6

    // temp_store=MEMORY: prune's eviction sets are temp tables of up to 100 000 rows; kept in
    // memory instead of temp files they cost a fifth less.
    // secure_delete=OFF: Debian's SQLite zeroes deleted content by default, which makes a prune
    // dropping 85 000 rows twice as slow. The rows are public feed metadata whose files are
    // unlinked, not shredded, anyway.
    // synchronous=FULL: a commit is on disk before the writer goes on to write the manifests and
    // pages that reflect it (and a later prune trusts the rows); in WAL mode that is one fsync
    // of the WAL per commit, and a sync commits once per batch of images.
    /// Everything but the tables and `newFilePragmas`: run before `statements` and the migration.
    static let pragmas = """
    PRAGMA journal_mode=WAL;
    PRAGMA synchronous=FULL;
    PRAGMA temp_store=MEMORY;
    PRAGMA secure_delete=OFF;
    PRAGMA foreign_keys=ON;
    """

    // auto_vacuum=INCREMENTAL: the pages a prune frees go back to the file system (the
    // `incremental_vacuum` of `PhotoIndex.checkpoint`) instead of staying in the file for ever.
    // It takes effect only when set before the first table exists, and before journal_mode=WAL
    // writes the new file's header; an older index gets it by `IndexMigration.enableIncrementalVacuum`.
    // Only for a new file: on an existing one, setting it (even to the mode it has) writes the
    // header page, a commit that needs disk space before a prune on a full disk can free any.
    /// Run first, on a file that has no page yet.
    static let newFilePragmas = "PRAGMA auto_vacuum=INCREMENTAL;"

    static let statements = """
    CREATE TABLE IF NOT EXISTS meta(
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS originals(
        sha256 TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        bytes INTEGER NOT NULL,
        format TEXT NOT NULL,
        stored_at REAL NOT NULL,
        last_access REAL NOT NULL,
        warning TEXT,
        placeholder TEXT);
    \(thumbnailsTable)
    CREATE TABLE IF NOT EXISTS resources(
        url TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        etag TEXT,
        last_modified TEXT,
        content_type TEXT,
        fetched_at REAL NOT NULL,
        last_access REAL NOT NULL);
    CREATE INDEX IF NOT EXISTS resources_by_sha256 ON resources(sha256);
    CREATE TABLE IF NOT EXISTS feeds(
        key TEXT PRIMARY KEY,
        url TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        link TEXT,
        attribution TEXT,
        etag TEXT,
        last_modified TEXT,
        last_sync REAL NOT NULL,
        image_url TEXT,
        image_sha256 TEXT,
        warnings TEXT);
    CREATE TABLE IF NOT EXISTS items(
        feed_key TEXT NOT NULL REFERENCES feeds(key) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        link TEXT,
        published REAL,
        date_taken REAL,
        author TEXT,
        tags TEXT NOT NULL,
        description TEXT,
        media_url TEXT,
        status TEXT NOT NULL,
        error TEXT,
        sha256 TEXT,
        media_source TEXT,
        PRIMARY KEY(feed_key, item_id));
    \(itemMediaTable)
    """

    /// One row per thumbnail file, whose path follows from the two keys. `WITHOUT ROWID`: the
    /// key is the table, with no second b-tree to find a row by it.
    static func thumbnailsTable(named name: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(name)(
            original_sha256 TEXT NOT NULL,
            size TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            stored_at REAL NOT NULL,
            last_access REAL NOT NULL,
            PRIMARY KEY(original_sha256, size)) WITHOUT ROWID;
        """
    }

    static var thumbnailsTable: String { thumbnailsTable(named: "thumbnails") }

    /// Indexes of earlier versions that no query uses: dropped by the migration.
    static let droppedIndexes = ["items_by_sha256", "item_media_by_sha256"]

    /// An item's images after the first (ordinal 1, 2, …); the first stays on its `items` row,
    /// so a one-image feed (nearly all of them) costs no extra row.
    static let itemMediaTable = """
    CREATE TABLE IF NOT EXISTS item_media(
        feed_key TEXT NOT NULL REFERENCES feeds(key) ON DELETE CASCADE,
        item_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        url TEXT NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        sha256 TEXT,
        PRIMARY KEY(feed_key, item_id, ordinal));
    CREATE TABLE IF NOT EXISTS feed_polls(
        feed_key TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        ttl REAL,
        poll_after REAL,
        gone_at REAL);
    """

    /// Columns each version added to a table that already existed: (table, column, declaration).
    /// `CREATE TABLE IF NOT EXISTS` leaves an older cache's tables as they were.
    static let addedColumns: [(table: String, column: String, declaration: String)] = [
        ("items", "media_source", "TEXT"),
        ("feeds", "image_url", "TEXT"),
        ("feeds", "image_sha256", "TEXT"),
        ("feeds", "warnings", "TEXT"),
        ("originals", "warning", "TEXT"),
        ("originals", "placeholder", "TEXT"),
    ]
}
