/// One file an index row names, with what its row promises, packed: a normal row holds no heap
/// String, so `verify` reads 150 000 of them a page at a time without the memory following the cache.
public struct IndexedFile: Sendable {
    public enum Role: Sendable, Equatable {
        case original
        /// A thumbnail of the original `originalSHA256` at `size` (`40x40`).
        case thumbnail(originalSHA256: ImageHash, size: String)
    }

    public var role: Role
    public var path: CachePath
    public var bytes: Int
    /// The SHA-256 of the file's own bytes (an original's is its name).
    public var sha256: ImageHash

    public init(role: Role, path: CachePath, bytes: Int, sha256: ImageHash) {
        (self.role, self.path, self.bytes, self.sha256) = (role, path, bytes, sha256)
    }

    /// Where a page of `PhotoIndex.indexedFiles` ended: the next page starts after it.
    public struct Cursor: Sendable {
        fileprivate var originalRowID: Int64?
        fileprivate var thumbnail: (original: String, size: String)?

        public static let start = Cursor(originalRowID: 0, thumbnail: nil)
    }
}

extension PhotoIndex {
    /// Up to `limit` file rows after `cursor`: the originals in row order, then the thumbnails
    /// in key order; the cursor of the next page, nil after the last. Each page is a range of
    /// its table's b-tree, so paging through costs one scan of the tables.
    public func indexedFiles(after cursor: IndexedFile.Cursor, limit: Int) throws(IndexError)
        -> (files: [IndexedFile], next: IndexedFile.Cursor?)
    {
        var files: [IndexedFile] = []
        files.reserveCapacity(limit)
        var next = cursor
        if let rowID = cursor.originalRowID {
            let originals = try connection.statement(
                "SELECT rowid, sha256, path, bytes FROM originals WHERE rowid > ? ORDER BY rowid LIMIT ?")
                .bind(.integer(rowID), .integer(Int64(limit)))
            while try originals.step() {
                next.originalRowID = Int64(originals.int(0))
                files.append(IndexedFile(role: .original, path: originals.withText(2, CachePath.init(utf8:)) ?? .text(""),
                                         bytes: originals.int(3),
                                         sha256: originals.withText(1, ImageHash.init(utf8:)) ?? .text("")))
            }
            guard files.count < limit else { return (files, next) }
            next.originalRowID = nil
        }
        let thumbnails: Statement
        if let (original, size) = next.thumbnail {
            thumbnails = try connection.statement("""
                SELECT original_sha256, size, bytes, sha256 FROM thumbnails WHERE (original_sha256, size) > (?, ?)
                ORDER BY original_sha256, size LIMIT ?
                """).bind(.text(original), .text(size), .integer(Int64(limit - files.count)))
        } else {
            thumbnails = try connection.statement(
                "SELECT original_sha256, size, bytes, sha256 FROM thumbnails ORDER BY original_sha256, size LIMIT ?")
                .bind(.integer(Int64(limit - files.count)))
        }
        var last: (original: ImageHash, size: String)?
        while try thumbnails.step() {
            let path = thumbnails.withText(0) { sha256 in thumbnails.withText(1) { size in CachePath(thumbnailOf: sha256, size: size) } }
            let size = thumbnails.text(1) ?? ""
            let original = thumbnails.withText(0, ImageHash.init(utf8:)) ?? .text("")
            files.append(IndexedFile(role: .thumbnail(originalSHA256: original, size: size), path: (path ?? nil) ?? .text(""),
                                     bytes: thumbnails.int(2), sha256: thumbnails.withText(3, ImageHash.init(utf8:)) ?? .text("")))
            last = (original, size)
        }
        guard files.count == limit, let last else { return (files, nil) }
        next.thumbnail = (last.original.description, last.size)
        return (files, next)
    }
}
