import CSQLite

/// Values that bind to and read from SQLite columns.
enum SQLValue {
    case null, integer(Int64), real(Double), text(String)
}

/// A prepared statement in use: bind by position, step through rows, read columns.
struct Statement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    @discardableResult
    func bind(_ values: SQLValue...) throws(IndexError) -> Statement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
            case .real(let number): rc = sqlite3_bind_double(handle, index, number)
            case .text(let text): rc = sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
            }
            if rc != SQLITE_OK { throw connection.lastError(rc) }
        }
        return self
    }

    /// Advances to the next row; false when done.
    func step() throws(IndexError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(rc)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(IndexError) {
        while try step() {}
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        // SQLite knows the length: no strlen over every path and hash of a 100 000-row read.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column's text in place (valid until the next step), to parse without making a String;
    /// nil for NULL.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }
}

extension SQLValue {
    static func optional(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
    static func optional(_ number: Double?) -> SQLValue { number.map { .real($0) } ?? .null }
}
