/// Writing a new index from what the cache holds (`verify --repair` on a damaged or lost one).
extension PhotoIndex {
    /// The file rows and media URLs a rebuild found, in one transaction: every content file as
    /// its original's or thumbnail's row, and every media URL whose image has a file. Rows
    /// already there are kept (the same content under the same name).
    public func insertRebuiltFiles(originals: [OriginalRecord], thumbnails: [ThumbnailRecord],
                                   resources: [ResourceRecord]) throws(IndexError) {
        try connection.transaction { () throws(IndexError) in
            for original in originals {
                try connection.statement("""
                    INSERT INTO originals(sha256, path, bytes, format, stored_at, last_access, warning, placeholder)
                    VALUES(?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
                    """).bind(.text(original.sha256), .text(original.path), .integer(Int64(original.bytes)),
                              .text(original.format), .real(original.storedAt), .real(original.lastAccess),
                              .optional(original.warning), .optional(original.placeholder)).run()
            }
            for thumbnail in thumbnails {
                try connection.statement("""
                    INSERT INTO thumbnails(original_sha256, size, bytes, sha256, stored_at, last_access)
                    VALUES(?,?,?,?,?,?) ON CONFLICT DO NOTHING
                    """).bind(.text(thumbnail.originalSHA256), .text(thumbnail.size),
                              .integer(Int64(thumbnail.bytes)), .text(thumbnail.sha256),
                              .real(thumbnail.storedAt), .real(thumbnail.lastAccess)).run()
            }
            for resource in resources {
                try connection.statement("""
                    INSERT INTO resources(url, sha256, etag, last_modified, content_type, fetched_at, last_access)
                    VALUES(?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
                    """).bind(.text(resource.url), .text(resource.sha256), .optional(resource.etag),
                              .optional(resource.lastModified), .optional(resource.contentType),
                              .real(resource.fetchedAt), .real(resource.lastAccess)).run()
            }
        }
    }

    /// Folds the write-ahead log into the file and leaves WAL mode, so that the file alone holds
    /// the whole index and can be renamed into another's place; the next writer's open turns
    /// WAL on again. Only for an index no other connection has open (a rebuild's new file).
    public func detachLog() throws(IndexError) {
        connection.resetStatements()
        try connection.execute("PRAGMA journal_mode=DELETE")
    }
}
