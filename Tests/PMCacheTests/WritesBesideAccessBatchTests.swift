import Foundation
import Testing
@testable import PMCache

/// cache-layout.md promises that serve's access batch never fails a writer. A writer's read
/// left on a row keeps its snapshot: once serve commits, SQLite refuses to upgrade that stale
/// snapshot to a write at once (SQLITE_BUSY_SNAPSHOT), and no busy timeout covers it.
@Suite struct WritesBesideAccessBatchTests {
    static let sha = String(repeating: "ab", count: 32)

    func makeIndex() async throws -> (PhotoIndex, IndexAccessWriter) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-beside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        let index = try PhotoIndex(path: path)
        try await index.record(resource: Self.resource(Self.sha), original: Self.original(Self.sha), thumbnails: [])
        return (index, IndexAccessWriter(indexPath: path))
    }

    static func resource(_ sha: String) -> ResourceRecord {
        ResourceRecord(url: "https://img/\(sha)", sha256: sha, etag: nil, lastModified: nil,
                       contentType: nil, fetchedAt: 10, lastAccess: 10)
    }

    static func original(_ sha: String) -> OriginalRecord {
        OriginalRecord(sha256: sha, path: CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"),
                       bytes: 100, format: "jpeg", storedAt: 10, lastAccess: 10)
    }

    @Test func aWriteAfterAReadAndAnAccessBatchSucceeds() async throws {
        let (index, writer) = try await makeIndex()
        // Lookups a sync makes before it writes: each returns on the row it found.
        #expect(try await index.original(sha256: Self.sha) != nil)
        #expect(try await index.media(for: "https://img/\(Self.sha)") != nil)
        #expect(writer.write([.original(ImageHash(Self.sha)): 50]) == .written)
        let other = String(repeating: "cd", count: 32)
        try await index.record(resource: Self.resource(other), original: Self.original(other), thumbnails: [])
        try await index.touch(url: "https://img/\(Self.sha)", sha256: Self.sha, at: 60)
        #expect(try await index.original(sha256: other) != nil)
        #expect(try await index.original(sha256: Self.sha)?.lastAccess == 60)
    }

    @Test func everyWriteAfterReadsAndAnAccessBatchSucceeds() async throws {
        let (index, writer) = try await makeIndex()
        for round in 0..<20 {
            _ = try await index.original(sha256: Self.sha)
            _ = try await index.thumbnails(of: Self.sha)
            #expect(writer.write([.original(ImageHash(Self.sha)): Double(100 + round)]) == .written)
            try await index.apply([.touch(url: "https://img/\(Self.sha)", sha256: Self.sha, at: Double(200 + round))])
        }
    }
}
