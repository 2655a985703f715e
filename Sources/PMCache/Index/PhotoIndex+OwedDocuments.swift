import Foundation

/// Feeds whose manifest, JSON Feed and pages are owed a rewrite. `dropRows` records them in the
/// transaction that drops the rows; the writer that rewrites their documents clears them. A
/// writer killed in between (a prune, after the index and before the pages) leaves them
/// recorded, and the next writer rewrites those documents before it deletes any file: else a
/// later prune would take the dropped rows' files as garbage while the old documents still name
/// them, and a sync that finds the feed unchanged (304) would leave those documents as they are.
extension PhotoIndex {
    public func owedDocuments() throws(IndexError) -> Set<String> {
        guard let text = try meta(MetaKey.owedDocuments) else { return [] }
        return Set((try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? [])
    }

    /// Called once the documents of `feedKeys` are written from the rows as they are now.
    public func documentsWritten(feedKeys: some Sequence<String>) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            let left = try owedDocuments().subtracting(feedKeys)
            try writeOwed(left)
        }
    }

    /// Inside `dropRows`' transaction.
    func oweDocuments(feedKeys: Set<String>) throws(IndexError) {
        guard !feedKeys.isEmpty else { return }
        try writeOwed(try owedDocuments().union(feedKeys))
    }

    private func writeOwed(_ keys: Set<String>) throws(IndexError) {
        if keys.isEmpty {
            try connection.statement("DELETE FROM meta WHERE key = ?").bind(.text(MetaKey.owedDocuments)).run()
        } else {
            try connection.statement("""
                INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """).bind(.text(MetaKey.owedDocuments), .text(JSONStringList.encode(keys.sorted()))).run()
        }
    }
}
