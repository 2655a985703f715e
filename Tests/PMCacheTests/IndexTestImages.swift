@testable import PMCache

extension PhotoIndex {
    /// Records `sha` as a test image fetched from `https://img/<sha>`: its URL row, an original of
    /// 100 bytes and a 40x40 and an 80x80 thumbnail, all stored and last used at time 1.
    func recordTestImage(_ sha: String) throws(IndexError) {
        try record(
            resource: ResourceRecord(url: "https://img/\(sha)", sha256: sha, etag: nil, lastModified: nil,
                                     contentType: nil, fetchedAt: 1, lastAccess: 1),
            original: OriginalRecord(sha256: sha, path: "originals/\(sha).jpg", bytes: 100, format: "jpeg",
                                     storedAt: 1, lastAccess: 1),
            thumbnails: ["40x40", "80x80"].map {
                ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 5, sha256: "t", storedAt: 1, lastAccess: 1)
            })
    }

    /// Whether this SQLite has the `dbstat` table prune reads to tell a sparse table.
    var measuresPages: Bool {
        guard let query = try? connection.statement("SELECT count(*) FROM dbstat('main', 1) WHERE name = 'meta'") else {
            return false
        }
        defer { _ = try? query.step() }
        return (try? query.step()) == true
    }
}
