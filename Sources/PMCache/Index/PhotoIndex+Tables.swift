/// Whether an index file holds any table: a new index gets its header from `journal_mode=WAL`
/// before the transaction that creates its tables commits, so a process killed between the two
/// leaves a valid SQLite file with no schema.
extension PhotoIndex {
    /// True when `path` opens as an SQLite database whose schema is empty; false when it holds
    /// tables or cannot be read at all (the caller then opens it and reports what SQLite says).
    public static func holdsNoTables(path: String) -> Bool {
        guard let connection = try? SQLiteConnection(path: path, readOnly: true),
              let query = try? connection.statement("SELECT count(*) FROM sqlite_schema"),
              (try? query.step()) == true else { return false }
        return query.int(0) == 0
    }
}
