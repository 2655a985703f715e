/// Whole-sync versions of the per-URL lookups and writes. A sync of thousands of images then
/// makes one actor call for its lookups and one transaction per batch of writes, instead of an
/// actor hop, three queries and a commit (a WAL append and a lock round trip) per image.
extension PhotoIndex {
    /// One index write a sync decided on for a media URL.
    public enum MediaWrite: Sendable {
        case touch(url: String, sha256: String, at: Double)
        /// `placeholder`: with no `original` (thumbnails made again from a stored one), its
        /// placeholder, for a row stored before schema 6 that has none.
        case record(resource: ResourceRecord, original: OriginalRecord?, thumbnails: [ThumbnailRecord],
                    placeholder: String? = nil)

        /// Whether the write only marks an image the index already had, as it was, as used.
        public var isTouch: Bool {
            if case .touch = self { return true }
            return false
        }

        /// Whether the write names files (an original, thumbnails) that may have just been put.
        public var namesNewFiles: Bool {
            if case .record(_, let original, let thumbnails, _) = self { return original != nil || !thumbnails.isEmpty }
            return false
        }
    }

    /// `media(for:)` for many URLs, in one joined query (the URLs go in as one JSON array).
    /// URLs the index does not know are absent from the result.
    public func media(for urls: [String]) throws(IndexError) -> [String: CachedMedia] {
        try syncMedia(for: urls).mapValues(\.media)
    }

    /// Applies `writes` in order, in one transaction: all of them or (on an error) none.
    public func apply(_ writes: [MediaWrite]) throws(IndexError) {
        guard !writes.isEmpty else { return }
        try connection.transaction { () throws(IndexError) in
            // Touches are grouped by time (a sync gives its batch one) into three statements;
            // they and the records name disjoint URLs, so the order between them is free.
            var touches: [Double: (urls: [String], hashes: [String])] = [:]
            for write in writes {
                switch write {
                case .touch(let url, let sha256, let time):
                    touches[time, default: ([], [])].urls.append(url)
                    touches[time, default: ([], [])].hashes.append(sha256)
                case .record(let resource, let original, let thumbnails, let placeholder):
                    try writeRecord(resource: resource, original: original, thumbnails: thumbnails)
                    if original == nil, let placeholder { try fillPlaceholder(placeholder, sha256: resource.sha256) }
                }
            }
            for (time, touched) in touches {
                try writeTouches(urls: touched.urls, sha256s: touched.hashes, at: time)
            }
        }
        refitPageCache()
    }

    /// The stored files of many originals, in one actor call: what a manifest or gallery page
    /// names for each item. Two queries for the whole set (the hashes go in as one JSON array);
    /// every hash asked for has an entry, empty when the index holds no file of it.
    public func files(of sha256s: Set<String>) throws(IndexError)
        -> [String: (original: OriginalRecord?, thumbnails: [String: ThumbnailRecord])]
    {
        var result: [String: (original: OriginalRecord?, thumbnails: [String: ThumbnailRecord])] = [:]
        guard !sha256s.isEmpty else { return result }
        let hashes = Array(sha256s)
        result.reserveCapacity(hashes.count)
        for sha256 in hashes { result[sha256] = (nil, [:]) }
        let list = JSONStringList.encode(hashes)
        // `j.key` is the hash's place in the array: its String is reused, not read back.
        let originals = try connection.statement("""
            SELECT j.key, o.path, o.bytes, o.format, o.stored_at, o.last_access, o.warning, o.placeholder
            FROM json_each(?) j JOIN originals o ON o.sha256 = j.value
            """)
        try originals.bind(.text(list))
        while try originals.step() {
            let sha256 = hashes[originals.int(0)]
            result[sha256]?.original = OriginalRecord(
                sha256: sha256, path: originals.text(1) ?? "", bytes: originals.int(2), format: originals.text(3) ?? "",
                storedAt: originals.double(4), lastAccess: originals.double(5), warning: originals.text(6),
                placeholder: originals.text(7))
        }
        let thumbnails = try connection.statement("""
            SELECT j.key, t.size, t.bytes, t.sha256, t.stored_at, t.last_access
            FROM json_each(?) j JOIN thumbnails t ON t.original_sha256 = j.value
            """)
        try thumbnails.bind(.text(list))
        while try thumbnails.step() {
            let sha256 = hashes[thumbnails.int(0)]
            let record = ThumbnailRecord(
                originalSHA256: sha256, size: thumbnails.text(1) ?? "", bytes: thumbnails.int(2),
                sha256: thumbnails.text(3) ?? "", storedAt: thumbnails.double(4), lastAccess: thumbnails.double(5))
            result[sha256]?.thumbnails[record.size] = record
        }
        return result
    }

    static func original(from row: Statement, at first: Int32) -> OriginalRecord {
        OriginalRecord(sha256: row.text(first) ?? "", path: row.text(first + 1) ?? "", bytes: row.int(first + 2),
                       format: row.text(first + 3) ?? "", storedAt: row.double(first + 4),
                       lastAccess: row.double(first + 5))
    }

    static func thumbnail(from row: Statement, at first: Int32) -> ThumbnailRecord {
        ThumbnailRecord(originalSHA256: row.text(first) ?? "", size: row.text(first + 1) ?? "",
                        bytes: row.int(first + 2), sha256: row.text(first + 3) ?? "",
                        storedAt: row.double(first + 4), lastAccess: row.double(first + 5))
    }
}
