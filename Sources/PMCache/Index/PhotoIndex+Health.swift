/// SQLite's own check of the index file, for `verify`.
extension PhotoIndex {
    /// What SQLite finds wrong with the file: empty when nothing. `deep` runs `integrity_check`,
    /// which also compares every index with its table; otherwise `quick_check`, which walks
    /// every page of every b-tree (the structure, the free list, each row's columns) in time
    /// linear in the file. At most `limit` findings, in SQLite's words. A file too damaged to
    /// be read at all throws an `IndexError` whose `isDamage` is true instead.
    public func integrityProblems(deep: Bool, limit: Int = 10) throws(IndexError) -> [String] {
        let query = try connection.statement("PRAGMA \(deep ? "integrity_check" : "quick_check")(\(max(1, limit)))")
        var problems: [String] = []
        while try query.step() {
            guard let text = query.text(0), text != "ok" else { continue }
            // The first finding comes after a header line naming the schema ("*** in database main ***").
            problems += text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("*** ") }
        }
        return problems
    }
}
