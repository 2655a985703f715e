import CSQLite

/// An SQLite error with the statement's context and SQLite's own message.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    /// The index file the error is about, when known: a damaged index is named by it.
    public var path: String?

    public init(code: Int32, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// A file that is not a database, found before SQLite was asked (which takes an empty file
    /// for a new database): damage, said as SQLite says it of any other such file.
    public static func notADatabase(path: String, _ message: String) -> IndexError {
        IndexError(code: SQLITE_NOTADB, message: message, path: path)
    }

    /// What every command says of a damaged index, whatever it was doing: the next step, not
    /// only SQLite's words (which follow in parentheses).
    public static let damageAdvice = "the index is damaged; run `photomirror verify --repair`"

    public var description: String {
        guard isDamage else { return "index: \(message) (SQLite code \(code))" }
        return "\(path ?? CacheLayout.indexFile): \(Self.damageAdvice) (\(message), SQLite code \(code))"
    }

    /// The file is not an SQLite database or its pages contradict each other (SQLITE_CORRUPT,
    /// SQLITE_NOTADB): what a failing disk or a stray write leaves. Nothing read from it can be
    /// trusted; `verify --repair` rebuilds it from the manifests and the content files.
    public var isDamage: Bool { [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xff) }

    /// The index's disk is full (SQLITE_FULL), it cannot be written (SQLITE_READONLY,
    /// SQLITE_CANTOPEN) or it is damaged: no later write to the same cache will succeed either.
    public var endsTheSync: Bool { [SQLITE_FULL, SQLITE_READONLY, SQLITE_CANTOPEN].contains(code & 0xff) || isDamage }
}

// SQLite's SQLITE_TRANSIENT macro is not imported: it is the destructor value -1, which makes
// SQLite copy a bound string before the Swift temporary it came from goes away.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not Sendable: it lives inside the `PhotoIndex` actor and never leaves it.
final class SQLiteConnection {
    let db: OpaquePointer
    let path: String
    private var statements: [String: OpaquePointer] = [:]

    /// `mayCreate: false` opens only an index that exists. `busyTimeout` is how long a write
    /// waits for another connection's write transaction, in milliseconds.
    convenience init(path: String, readOnly: Bool = false, mayCreate: Bool = true, busyTimeout: Int32 = 5000) throws(IndexError) {
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (mayCreate ? SQLITE_OPEN_CREATE : 0)
        try self.init(path: path, openName: path, flags: access, busyTimeout: busyTimeout)
    }

    /// `openName` is what SQLite is given (the path, or a `file:` URI with `SQLITE_OPEN_URI`).
    private init(path: String, openName: String, flags access: Int32, busyTimeout: Int32) throws(IndexError) {
        var handle: OpaquePointer?
        let flags = access | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(openName, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let handle { sqlite3_close_v2(handle) }
            throw IndexError(code: rc, message: "\(path): \(message)", path: path)
        }
        db = handle
        self.path = path
        sqlite3_busy_timeout(db, busyTimeout)
    }

    /// A connection that only reads, opened in `mode`. `path` stays the file's path (for
    /// messages); an immutable one is opened through its `file:` URI.
    convenience init(readingAt path: String, mode: IndexReadMode, busyTimeout: Int32 = 5000) throws(IndexError) {
        switch mode {
        case .shared: try self.init(path: path, readOnly: true, busyTimeout: busyTimeout)
        case .immutable: try self.init(path: path, openName: Self.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, busyTimeout: busyTimeout)
        case .recovering:
            try self.init(path: path, openName: path, flags: SQLITE_OPEN_READWRITE, busyTimeout: busyTimeout)
            // The first read rolls back what the killed writer left.
            try execute("SELECT count(*) FROM sqlite_master")
        }
    }

    /// `file:` URI of `path` with `immutable=1`: every byte but the unreserved ones and `/`
    /// percent-encoded, so a `?`, `#` or `%` in a folder's name stays part of the path.
    static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += (hex.count == 1 ? "%0" : "%") + hex
            }
        }
        return "file:\(encoded)?immutable=1"
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func execute(_ sql: String) throws(IndexError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw IndexError(code: rc, message: message, path: path)
        }
    }

    /// Starts a write transaction, as every write of the index does (no write runs in autocommit).
    ///
    /// The cached statements are reset first. A statement left on its row (a lookup that read
    /// the one row it wanted) keeps its read transaction open, and `BEGIN IMMEDIATE` would then
    /// upgrade that snapshot: once another connection (serve's access batch) has committed
    /// since it was taken, SQLite refuses at once with SQLITE_BUSY_SNAPSHOT ("database is
    /// locked"), which no busy timeout waits out. Without a snapshot, the write waits its turn
    /// behind the other connection's commit.
    func beginWrite() throws(IndexError) {
        resetStatements()
        try execute("BEGIN IMMEDIATE")
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` (`beginWrite`), rolling back if it throws.
    func transaction<T>(_ body: () throws(IndexError) -> T) throws(IndexError) -> T {
        try beginWrite()
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A cached prepared statement, reset and with its bindings cleared.
    func statement(_ sql: String) throws(IndexError) -> Statement {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            sqlite3_clear_bindings(cached)
            return Statement(handle: cached, connection: self)
        }
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &handle, nil)
        guard rc == SQLITE_OK, let handle else { throw lastError(rc) }
        statements[sql] = handle
        return Statement(handle: handle, connection: self)
    }

    /// Resets every cached statement. A statement left on a row holds its read transaction
    /// open, and with it the WAL: a checkpoint could then not empty the log.
    func resetStatements() {
        for statement in statements.values { sqlite3_reset(statement) }
    }

    func lastError(_ rc: Int32) -> IndexError {
        IndexError(code: rc, message: String(cString: sqlite3_errmsg(db)), path: path)
    }

    var changes: Int { Int(sqlite3_changes(db)) }

    /// True when SQLite could open the file for reading only (a read-only file or file system),
    /// though read-write was asked for.
    var isReadOnly: Bool { sqlite3_db_readonly(db, "main") == 1 }
}
