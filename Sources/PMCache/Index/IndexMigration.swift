/// Brings an index written by an earlier schema version up to `IndexSchema.version`, in place
/// and in one transaction: a process killed half-way leaves the old version, which the next
/// open migrates again. Columns are added; only `thumbnails` is rewritten (version 4).
enum IndexMigration {
    static func run(_ connection: SQLiteConnection) throws(IndexError) {
        var rewrote = false
        try connection.transaction { () throws(IndexError) in
            for added in try missingColumns(in: connection) {
                try connection.execute("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.declaration)")
            }
            rewrote = try rewriteThumbnails(connection)
            for index in IndexSchema.droppedIndexes { try connection.execute("DROP INDEX IF EXISTS \(index)") }
            try connection.statement("""
                INSERT INTO meta(key, value) VALUES('\(MetaKey.schemaVersion)', ?)
                ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)
                """).bind(.text(String(IndexSchema.version))).run()
        }
        // The old table's pages go back to the file system, as a prune's do.
        if rewrote { try connection.execute("PRAGMA incremental_vacuum") }
    }

    /// Version 4's `thumbnails`, from an older one's: the same rows without `path`, which was
    /// always the path `CacheLayout` gives for the two keys (every writer wrote that one), into
    /// a `WITHOUT ROWID` table. False when the table already has the new shape.
    private static func rewriteThumbnails(_ connection: SQLiteConnection) throws(IndexError) -> Bool {
        guard try columns(of: "thumbnails", in: connection).contains("path") else { return false }
        try connection.execute("""
            \(IndexSchema.thumbnailsTable(named: "thumbnails_v4"))
            INSERT INTO thumbnails_v4(original_sha256, size, bytes, sha256, stored_at, last_access)
                SELECT original_sha256, size, bytes, sha256, stored_at, last_access FROM thumbnails ORDER BY 1, 2;
            DROP TABLE thumbnails;
            ALTER TABLE thumbnails_v4 RENAME TO thumbnails;
            """)
        return true
    }

    /// The columns of `IndexSchema.addedColumns` the index does not have yet.
    private static func missingColumns(in connection: SQLiteConnection) throws(IndexError)
        -> [(table: String, column: String, declaration: String)]
    {
        var missing: [(table: String, column: String, declaration: String)] = []
        for added in IndexSchema.addedColumns where try !columns(of: added.table, in: connection).contains(added.column) {
            missing.append(added)
        }
        return missing
    }

    private static func columns(of table: String, in connection: SQLiteConnection) throws(IndexError) -> Set<String> {
        let query = try connection.statement("SELECT name FROM pragma_table_info(?)")
        try query.bind(.text(table))
        var names: Set<String> = []
        while try query.step() { if let name = query.text(0) { names.insert(name) } }
        return names
    }
}

extension IndexMigration {
    /// An index created before the schema set `auto_vacuum=INCREMENTAL` (SQLite's default is
    /// NONE) is rewritten once by `VACUUM`, the only way to change it: a copy of the whole file,
    /// about a second and twice the index's size on disk for a while at 100 000 images, so it
    /// is done by the writer that holds the lock, once, and never by a reader. The temporary
    /// copy goes to a file, not memory (`temp_store`). Killed half-way, VACUUM leaves the old
    /// file as it was, and the next writer's open does it again. A file left in FULL mode (see
    /// `PhotoIndex.releaseFreePages`) only needs the mode set back, which copies nothing.
    static func enableIncrementalVacuum(_ connection: SQLiteConnection) throws(IndexError) {
        let mode = try connection.statement("PRAGMA auto_vacuum")
        var current = 0
        // Stepped to the end, so no read transaction stays open under the VACUUM.
        while try mode.step() { current = mode.int(0) }
        if current == autoVacuumFull {
            // `PhotoIndex.releaseFreePages` was stopped between its two switches: no copy needed.
            try connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
            return
        }
        guard current == autoVacuumNone else { return }
        try connection.execute("PRAGMA auto_vacuum=INCREMENTAL; PRAGMA temp_store=FILE")
        defer { try? connection.execute("PRAGMA temp_store=MEMORY") }
        try connection.execute("VACUUM")
    }

    private static let autoVacuumNone = 0
    private static let autoVacuumFull = 1
}

extension IndexMigration {
    /// A read-only connection (`verify`, `stats`) cannot migrate an index an older version
    /// wrote: temporary views, which shadow the main tables of the same name, show it in the
    /// current shape instead, the added columns as NULL and `item_media` and `feed_polls` empty. The file is not
    /// touched; the next writer migrates it.
    static func shadowForReading(_ connection: SQLiteConnection) throws(IndexError) {
        var missing: [String: [String]] = [:]
        for added in try missingColumns(in: connection) { missing[added.table, default: []].append(added.column) }
        for (table, columns) in missing.sorted(by: { $0.key < $1.key }) {
            let nulls = columns.map { "NULL AS \($0)" }.joined(separator: ", ")
            try connection.execute("CREATE TEMP VIEW \(table) AS SELECT *, \(nulls) FROM main.\(table)")
        }
        if try Self.columns(of: "item_media", in: connection).isEmpty {
            try connection.execute("""
                CREATE TEMP VIEW item_media AS SELECT '' AS feed_key, '' AS item_id, 0 AS ordinal, '' AS url,
                    '' AS source, '' AS status, NULL AS error, NULL AS sha256 WHERE 0
                """)
        }
        if try Self.columns(of: "feed_polls", in: connection).isEmpty {
            try connection.execute("""
                CREATE TEMP VIEW feed_polls AS SELECT '' AS feed_key, '' AS url, NULL AS ttl, NULL AS poll_after,
                    NULL AS gone_at WHERE 0
                """)
        }
    }
}
