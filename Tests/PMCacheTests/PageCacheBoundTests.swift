import Foundation
import Testing
@testable import PMCache

@Suite struct PageCacheBoundTests {
    let bound = PageCacheBound(floorKiB: 512, ceilingKiB: 16 << 10, shareDivisor: 8)

    @Test func aSmallIndexKeepsTheFloor() {
        #expect(bound.kibibytes(indexBytes: 0) == 512)
        #expect(bound.kibibytes(indexBytes: 3 << 20) == 512, "a 2000-image sync's index: memory as before")
    }

    @Test func aLargerIndexGetsItsShareUpToTheCeiling() {
        #expect(bound.kibibytes(indexBytes: 40 << 20) == 5 << 10)
        #expect(bound.kibibytes(indexBytes: 150 << 20) == 16 << 10, "an index of 10^5 images stops at the ceiling")
        #expect(PageCacheBound.fixed(kibibytes: 4096).kibibytes(indexBytes: 1 << 30) == 4096)
    }

    @Test func refitsAreStepsOrLimits() {
        var fit = PageCacheFit(bound: bound)
        #expect(fit.shouldApply(512))
        fit.applied = 512
        #expect(!fit.shouldApply(512))
        #expect(!fit.shouldApply(700), "less than a step is not worth a pragma")
        #expect(fit.shouldApply(768))
        fit.applied = 16 << 10 - 100
        #expect(fit.shouldApply(16 << 10), "the ceiling is reached exactly")
    }

    /// The index grows under a sync's batches and its cache follows, from the floor up.
    @Test func theIndexResizesItsCacheAsBatchesGrowIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-pagecache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try PhotoIndex(path: folder.appendingPathComponent("index.sqlite").path)
        // A small bound, so that a test-sized index passes its floor.
        await index.boundPageCache(PageCacheBound(floorKiB: 64, ceilingKiB: 640, shareDivisor: 1))
        let first = try await index.pageCacheKiB()
        #expect(first >= 64 && first < 640, "a new index is its schema's few pages: \(first) KiB")
        for batch in 0..<12 {
            let writes: [PhotoIndex.MediaWrite] = (0..<200).map { n in
                let sha = String(repeating: String(format: "%02x", batch), count: 16) + String(format: "%032d", n)
                return .record(
                    resource: ResourceRecord(url: "https://img/\(sha)/" + String(repeating: "x", count: 200), sha256: sha,
                                             etag: nil, lastModified: nil, contentType: nil, fetchedAt: 1, lastAccess: 1),
                    original: OriginalRecord(sha256: sha, path: "originals/\(sha).jpg", bytes: 100, format: "jpeg",
                                             storedAt: 1, lastAccess: 1),
                    thumbnails: [])
            }
            try await index.apply(writes)
        }
        let grown = try await index.pageCacheKiB()
        #expect(grown >= first + PageCacheFit.stepKiB && grown <= 640, "the cache followed the index: \(first) → \(grown) KiB")
    }
}

extension PhotoIndex {
    /// The page cache's size in KiB, as the connection reports it.
    func pageCacheKiB() throws(IndexError) -> Int {
        let query = try connection.statement("PRAGMA cache_size")
        var size = 0
        while try query.step() { size = query.int(0) }
        return -size
    }
}
