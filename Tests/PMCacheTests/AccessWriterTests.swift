import Foundation
import Testing
@testable import PMCache

/// What `serve` counts as a use: which paths name a row, and how a batch reaches the index.
@Suite struct AccessWriterTests {
    static let x = String(repeating: "ab", count: 32), y = String(repeating: "cd", count: 32)

    @Test func contentPathsNameTheirRows() {
        #expect(AccessedFile(relativePath: "originals/ab/\(Self.x).jpg") == .original(ImageHash(Self.x)))
        #expect(AccessedFile(relativePath: "originals/ab/\(Self.x).webp") == .original(ImageHash(Self.x)))
        #expect(AccessedFile(relativePath: "thumbs/40x40/ab/\(Self.x).png") == .thumbnail(ImageHash(Self.x), size: "40x40"))
        #expect(AccessedFile(relativePath: "thumbs/1200x80/ab/\(Self.x).png") == .thumbnail(ImageHash(Self.x), size: "1200x80"))
        #expect(AccessedFile(relativePath: "thumbs/40x40/ab/\(Self.x).png")?.sha256 == ImageHash(Self.x))
    }

    @Test(arguments: [
        "index.html", "feeds/k/manifest.json", "originals/cd/\(x).jpg", "originals/ab/\(x).txt",
        "originals/ab/\(x.uppercased()).jpg", "originals/ab/\(x.dropLast()).jpg", "originals/\(x).jpg",
        "thumbs/040x40/ab/\(x).png", "thumbs/40/ab/\(x).png", "thumbs/0x40/ab/\(x).png", "thumbs/40x40/\(x).png",
        "other/ab/\(x).jpg", "originals/ab/\(x).jpg/x",
    ])
    func otherPathsNameNoRow(path: String) {
        #expect(AccessedFile(relativePath: path) == nil)
    }

    func makeIndex() async throws -> (PhotoIndex, IndexAccessWriter) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        let index = try PhotoIndex(path: path)
        for sha in [Self.x, Self.y] {
            try await index.record(
                resource: ResourceRecord(url: "https://img/\(sha)", sha256: sha, etag: nil, lastModified: nil,
                                         contentType: nil, fetchedAt: 10, lastAccess: 10),
                original: OriginalRecord(sha256: sha, path: CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                                         bytes: 100, format: "jpeg", storedAt: 10, lastAccess: 10),
                thumbnails: ["40x40", "80x80"].map {
                    ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 5, sha256: "t", storedAt: 10, lastAccess: 10)
                })
        }
        return (index, IndexAccessWriter(indexPath: path))
    }

    /// Last access of the original and of each thumbnail size.
    func lastAccess(_ index: PhotoIndex, _ sha: String) async throws -> [String: Double] {
        var times = try await index.thumbnails(of: sha).mapValues(\.lastAccess)
        times["original"] = try await index.original(sha256: sha)?.lastAccess
        return times
    }

    @Test func anOriginalUsesItsWholeImageAndAThumbnailItsOwnRow() async throws {
        let (index, writer) = try await makeIndex()
        #expect(writer.write([.original(ImageHash(Self.x)): 50, .thumbnail(ImageHash(Self.y), size: "80x80"): 60]) == .written)
        #expect(try await lastAccess(index, Self.x) == ["original": 50, "40x40": 50, "80x80": 50])
        #expect(try await lastAccess(index, Self.y) == ["original": 10, "40x40": 10, "80x80": 60])
    }

    @Test func aTimeIsNeverMovedBack() async throws {
        let (index, writer) = try await makeIndex()
        #expect(writer.write([.original(ImageHash(Self.x)): 5]) == .written)
        #expect(try await lastAccess(index, Self.x) == ["original": 10, "40x40": 10, "80x80": 10])
        // A row a prune dropped stays dropped.
        _ = try await index.dropRows(originals: [ImageHash(Self.y)], thumbnails: [])
        #expect(writer.write([.original(ImageHash(Self.y)): 50]) == .written)
        #expect(try await index.original(sha256: Self.y) == nil)
    }

    @Test func anotherWriterMakesItBusyUntilItCommits() async throws {
        let (index, writer) = try await makeIndex()
        let other = try SQLiteConnection(path: writer.indexPath)
        try other.execute("BEGIN IMMEDIATE")
        var impatient = writer
        impatient.busyTimeoutMilliseconds = 0
        #expect(impatient.write([.original(ImageHash(Self.x)): 50]) == .busy)
        try other.execute("COMMIT")
        #expect(impatient.write([.original(ImageHash(Self.x)): 50]) == .written)
        #expect(try await lastAccess(index, Self.x)["original"] == 50)
    }

    @Test func aMissingIndexIsNotCreated() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pm-access-\(UUID().uuidString).sqlite").path
        guard case .unavailable(let reason) = IndexAccessWriter(indexPath: path).write([.original(ImageHash(Self.x)): 1]) else {
            Issue.record("a missing index took the batch")
            return
        }
        #expect(reason.contains(path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aSchemaOneIndexIsNeitherWrittenNorMigrated() throws {
        let path = try IndexMigrationTests().schemaOneIndex()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("INSERT INTO originals VALUES('\(Self.x)', 'originals/ab/\(Self.x).jpg', 1, 'jpeg', 1, 1)")
        let outcome = IndexAccessWriter(indexPath: path).write([.original(ImageHash(Self.x)): 50])
        #expect(outcome == .unavailable("\(path) is schema 1, not \(IndexSchema.version); serve does not migrate it (the next sync does)"))
        let query = try connection.statement("SELECT last_access FROM originals WHERE sha256 = '\(Self.x)'")
        #expect(try query.step() && query.double(0) == 1)
        let version = try connection.statement("SELECT value FROM meta WHERE key = 'schema_version'")
        #expect(try version.step() && version.text(0) == "1")
    }
}
