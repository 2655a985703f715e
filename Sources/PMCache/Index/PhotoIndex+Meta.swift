/// The `meta` table: small named values beside the schema version (the last sync's counters,
/// the gallery's thumbnail size).
extension PhotoIndex {
    public func meta(_ key: String) throws(IndexError) -> String? {
        let query = try connection.statement("SELECT value FROM meta WHERE key = ?")
        try query.bind(.text(key))
        return try query.step() ? query.text(0) : nil
    }

    public func setMeta(_ values: [String: String]) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            for (key, value) in values {
                try connection.statement("""
                    INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
                    """).bind(.text(key), .text(value)).run()
            }
        }
    }
}

/// Keys of the `meta` table; `cache-layout.md` documents them.
public enum MetaKey {
    public static let schemaVersion = "schema_version"
    /// JSON object: the last sync's media counters (`LastSyncCounters`).
    public static let lastSync = "last_sync"
    /// The thumbnail size the gallery and manifests' `thumbnail` use (the first `--size` of the last sync).
    public static let gallerySize = "gallery_size"
    /// JSON list of the feeds whose documents still name files whose rows were dropped
    /// (`PhotoIndex.owedDocuments`).
    public static let owedDocuments = "owed_documents"
}
