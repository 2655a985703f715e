import Foundation
import Testing
@testable import PMCache

/// SQLite's own checks of the index file, what a damaged one says, the incremental auto-vacuum
/// every index gets, and a rebuilt index's file standing on its own.
@Suite struct IndexHealthTests {
    func indexPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-health-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("index.sqlite").path
    }

    /// Header field at `offset` (4 bytes, big-endian).
    func header(_ path: String, _ offset: Int) throws -> Int {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    func populated(_ path: String, images: Int = 200) async throws {
        let index = try PhotoIndex(path: path)
        var writes: [PhotoIndex.MediaWrite] = []
        for number in 0..<images {
            let sha = String(format: "%064x", number)
            writes.append(.record(
                resource: ResourceRecord(url: "https://img/\(number)", sha256: sha, etag: nil, lastModified: nil,
                                         contentType: nil, fetchedAt: 1, lastAccess: 1),
                original: OriginalRecord(sha256: sha, path: "originals/\(sha).jpg", bytes: 10, format: "jpeg",
                                         storedAt: 1, lastAccess: 1),
                thumbnails: []))
        }
        try await index.apply(writes)
    }

    /// Random bytes over whole pages of the file (1 is the header's).
    func overwrite(_ path: String, pages: [Int]) throws {
        let pageSize = try header(path, 16) >> 16
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        }
    }

    @Test func aSoundIndexPassesBothChecks() async throws {
        let path = try indexPath()
        try await populated(path)
        let reader = try PhotoIndex(readingOnly: path)
        #expect(try await reader.integrityProblems(deep: false).isEmpty)
        #expect(try await reader.integrityProblems(deep: true).isEmpty)
    }

    @Test func overwrittenPagesAreFoundByTheQuickCheck() async throws {
        let path = try indexPath()
        try await populated(path)
        let pages = try header(path, 28)
        try overwrite(path, pages: [2, pages / 2, pages])
        do {
            let problems = try await PhotoIndex(readingOnly: path).integrityProblems(deep: false)
            #expect(!problems.isEmpty)
            #expect(!problems.contains { $0.hasPrefix("***") }, "SQLite's header line is not a finding")
        } catch {
            #expect(error.isDamage, "\(error)")
        }
    }

    @Test func aDamagedHeaderSaysTheIndexIsDamagedAndWhatToDo() async throws {
        let path = try indexPath()
        try await populated(path)
        try overwrite(path, pages: [1])
        let error = try #require(throws: IndexError.self) { _ = try PhotoIndex(path: path) }
        #expect(error.isDamage && error.endsTheSync)
        #expect(error.description.hasPrefix("\(path): the index is damaged; run `photomirror verify --repair` ("),
                "\(error.description)")
        #expect(!IndexError(code: 5, message: "database is locked").isDamage)
    }

    @Test func aNewIndexVacuumsIncrementally() async throws {
        let path = try indexPath()
        try await populated(path)
        #expect(try header(path, 52) != 0, "auto-vacuum on")
        #expect(try header(path, 64) == 1, "incremental")
    }

    @Test func anIndexWithoutAutoVacuumIsMigratedOnceByTheWriter() async throws {
        let path = try indexPath()
        do {
            let old = try SQLiteConnection(path: path)
            try old.execute("PRAGMA journal_mode=WAL")
            try old.execute(IndexSchema.statements)
            try old.execute("""
                INSERT INTO originals(sha256, path, bytes, format, stored_at, last_access) VALUES('ab', 'originals/ab.jpg', 1, 'jpeg', 1, 1);
                INSERT INTO meta VALUES('schema_version', '3');
                """)
        }
        #expect(try header(path, 52) == 0)
        _ = try PhotoIndex(readingOnly: path)
        #expect(try header(path, 52) == 0, "a reader changes nothing")
        let writer = try PhotoIndex(path: path)
        let reader = try SQLiteConnection(path: path, readOnly: true)
        let mode = try reader.statement("PRAGMA auto_vacuum")
        #expect(try mode.step() && mode.int(0) == 2, "incremental, as the VACUUM in the log says")
        #expect(try await writer.original(sha256: "ab")?.path == "originals/ab.jpg")
        await writer.checkpoint()
        #expect(try header(path, 64) == 1)
    }

    @Test func aRebuiltIndexFileHoldsEverythingWithoutItsLog() async throws {
        let path = try indexPath()
        do {
            let index = try PhotoIndex(path: path)
            try await index.insertRebuiltFiles(
                originals: [OriginalRecord(sha256: "ab", path: "originals/ab.jpg", bytes: 3, format: "png", storedAt: 5, lastAccess: 6)],
                thumbnails: [ThumbnailRecord(originalSHA256: "ab", size: "40x40", bytes: 2, sha256: "t",
                                             storedAt: 5, lastAccess: 6)],
                resources: [ResourceRecord(url: "https://img/ab", sha256: "ab", etag: "\"e\"", lastModified: nil,
                                           contentType: "image/png", fetchedAt: 5, lastAccess: 6)])
            try await index.detachLog()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let moved = path + ".moved"
        try FileManager.default.moveItem(atPath: path, toPath: moved)
        let media = try #require(try await PhotoIndex(path: moved).media(for: "https://img/ab"))
        #expect(media.etag == "\"e\"" && media.original?.format == "png" && media.thumbnails["40x40"]?.sha256 == "t")
    }
}
