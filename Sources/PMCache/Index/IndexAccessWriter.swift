import CSQLite

/// How a batch of accesses fared in the index.
public enum AccessWriteOutcome: Sendable, Equatable {
    case written
    /// Another connection (a sync, a prune) is writing: keep the batch and try again later.
    case busy
    /// This index will not take them now or later in this run: there is none, it is read-only,
    /// or its schema is one this binary does not write. The reason is for people.
    case unavailable(String)
}

/// Writes the files `serve` handed out into their rows' `last_access`, so prune's LRU order
/// sees readers. Serving an original uses the whole image (its row and its thumbnails', as a
/// sync listing it does); serving a thumbnail uses that thumbnail's row. An image is as recent
/// as its most recent row, so either keeps it.
///
/// Each batch opens its own read-write connection and closes it after: between batches serve
/// holds nothing of the index open, and it never creates or migrates one. The batch is one
/// `BEGIN IMMEDIATE` transaction with a short busy timeout, so SQLite serialises it with a
/// sync's or prune's writes and it gives way to them (`busy`) instead of queueing behind a long
/// one. It does not take the writers' lock: an UPDATE in its own transaction is safe beside any
/// writer (it never brings back a row a prune dropped), and the lock would make a sync wait for
/// serve. A time is only ever moved forward, so a late batch never undoes a newer sync's touch.
public struct IndexAccessWriter: Sendable {
    public let indexPath: String
    /// How long a batch waits for another connection's write transaction.
    public var busyTimeoutMilliseconds: Int32 = 250

    public init(indexPath: String) {
        self.indexPath = indexPath
    }

    /// Sets each file's rows to its time (seconds since 1970) where they are older, in one transaction.
    public func write(_ accesses: [AccessedFile: Double]) -> AccessWriteOutcome {
        guard !accesses.isEmpty else { return .written }
        do {
            let connection = try SQLiteConnection(path: indexPath, mayCreate: false, busyTimeout: busyTimeoutMilliseconds)
            guard !connection.isReadOnly else { return .unavailable("\(indexPath) is read-only") }
            let version = try schemaVersion(connection)
            guard version == String(IndexSchema.version) else {
                return .unavailable("\(indexPath) is schema \(version ?? "unknown"), not \(IndexSchema.version); "
                    + "serve does not migrate it (the next sync does)")
            }
            // Losing the last batch to a power cut costs a little recency, not consistency.
            try connection.execute("PRAGMA synchronous=NORMAL")
            try connection.transaction { () throws(IndexError) in
                for (file, time) in accesses { try write(file, at: time, in: connection) }
            }
            return .written
        } catch {
            return Self.isTransient(error) ? .busy : .unavailable("\(error)")
        }
    }

    private func write(_ file: AccessedFile, at time: Double, in connection: SQLiteConnection) throws(IndexError) {
        switch file {
        case .original(let sha256):
            try connection.statement("UPDATE originals SET last_access = ?1 WHERE sha256 = ?2 AND last_access < ?1")
                .bind(.real(time), .text(sha256.description)).run()
            try connection.statement("""
                UPDATE thumbnails SET last_access = ?1 WHERE original_sha256 = ?2 AND last_access < ?1
                """).bind(.real(time), .text(sha256.description)).run()
        case .thumbnail(let sha256, let size):
            try connection.statement("""
                UPDATE thumbnails SET last_access = ?1 WHERE original_sha256 = ?2 AND size = ?3 AND last_access < ?1
                """).bind(.real(time), .text(sha256.description), .text(size)).run()
        }
    }

    private func schemaVersion(_ connection: SQLiteConnection) throws(IndexError) -> String? {
        let query = try connection.statement("SELECT value FROM meta WHERE key = ?")
        try query.bind(.text(MetaKey.schemaVersion))
        var version: String?
        // Stepped to the end, so no read transaction stays open under the write.
        while try query.step() { version = query.text(0) }
        return version
    }

    /// Another writer holds the index (or the disk is full for a moment): worth trying again.
    private static func isTransient(_ error: IndexError) -> Bool {
        [SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL].contains(error.code & 0xff)
    }
}
