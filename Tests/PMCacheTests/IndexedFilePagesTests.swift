import Foundation
import Testing
@testable import PMCache

/// `PhotoIndex.indexedFiles` pages through both tables: every file row once, across the page
/// and table boundaries, packed as `verify` checks it.
@Suite struct IndexedFilePagesTests {
    func makeIndex() throws -> PhotoIndex {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
    }

    func hash(_ number: Int) -> String {
        String(repeating: String(format: "%02x", number % 256), count: 32)
    }

    @Test(arguments: [1, 2, 3, 7, 100]) func everyRowComesOnceWhateverThePageSize(limit: Int) async throws {
        let index = try makeIndex()
        for number in 0..<5 {
            let sha = hash(number)
            try await index.record(
                resource: ResourceRecord(url: "https://img.example/\(number).jpg", sha256: sha, etag: nil, lastModified: nil,
                                         contentType: "image/jpeg", fetchedAt: 1, lastAccess: 1),
                original: OriginalRecord(sha256: sha, path: CacheLayout.originalPath(sha256: sha, fileExtension: "jpg"), bytes: 100 + number,
                                         format: "jpeg", storedAt: 1, lastAccess: 1),
                thumbnails: ["40x40", "80x80"].map {
                    ThumbnailRecord(originalSHA256: sha, size: $0, bytes: 10 + number, sha256: hash(number + 100), storedAt: 1, lastAccess: 1)
                })
        }
        var files: [IndexedFile] = []
        var cursor: IndexedFile.Cursor? = .start
        while let after = cursor {
            let page = try await index.indexedFiles(after: after, limit: limit)
            #expect(page.files.count <= limit)
            files += page.files
            cursor = page.next
        }
        #expect(files.count == 15)
        let originals = files.filter { $0.role == .original }
        #expect(Set(originals.map(\.sha256.description)) == Set((0..<5).map(hash)))
        #expect(originals.allSatisfy { $0.path.description == CacheLayout.originalPath(sha256: $0.sha256.description, fileExtension: "jpg") })
        let thumbnails = files.filter { $0.role != .original }
        #expect(Set(thumbnails.map(\.path.description)).count == 10)
        for thumbnail in thumbnails {
            guard case .thumbnail(let original, let size) = thumbnail.role else { continue }
            #expect(thumbnail.path.description == CacheLayout.thumbnailPath(originalSHA256: original.description, size: size))
            #expect(thumbnail.path.isOriginal == false)
        }
    }
}
