import Testing
@testable import PMCache
@testable import PhotoMirror

/// When a sync's batch of index writes is committed: by its images with new files, by its
/// writes of any kind, or by the age of its first write.
@Suite struct PendingWritesTests {
    let start = ContinuousClock.now

    func stored(_ n: Int) -> PhotoIndex.MediaWrite {
        let sha = String(repeating: "a", count: 60) + String(format: "%04d", n)
        let thumbnail = ThumbnailRecord(originalSHA256: sha, size: "40x40", bytes: 2000, sha256: sha, storedAt: 1, lastAccess: 1)
        return .record(resource: ResourceRecord(url: "u\(n)", sha256: sha, etag: nil, lastModified: nil, contentType: nil,
                                                fetchedAt: 1, lastAccess: 1),
                       original: nil, thumbnails: [thumbnail])
    }

    @Test func anEmptyBatchIsNeverDue() {
        #expect(!PendingWrites().isDue(at: start + .seconds(3600)))
    }

    @Test func aBatchIsDueAtItsLimitOfImagesWithNewFiles() {
        var writes = PendingWrites()
        for n in 0..<PendingWrites.limit - 1 { writes.add(stored(n), for: "u\(n)", at: start) }
        #expect(!writes.isDue(at: start))
        writes.add(stored(PendingWrites.limit), for: "last", at: start)
        #expect(writes.isDue(at: start))
    }

    @Test func touchesCountOnlyTowardTheirOwnLimit() {
        var writes = PendingWrites()
        for n in 0..<PendingWrites.limit { writes.add(.touch(url: "u\(n)", sha256: "s", at: 1), for: "u\(n)", at: start) }
        #expect(!writes.isDue(at: start), "a touch names no new file")
        for n in PendingWrites.limit..<PendingWrites.touchLimit { writes.add(.touch(url: "u\(n)", sha256: "s", at: 1), for: "u\(n)", at: start) }
        #expect(writes.isDue(at: start))
    }

    @Test func aBatchIsDueWhenItsFirstWriteIsOld() {
        var writes = PendingWrites()
        writes.add(stored(1), for: "u1", at: start)
        writes.add(stored(2), for: "u2", at: start + .seconds(1))
        #expect(!writes.isDue(at: start + PendingWrites.maxAge - .milliseconds(1)))
        #expect(writes.isDue(at: start + PendingWrites.maxAge))
    }

    @Test func aTakenBatchLeavesAnEmptyQueueWhoseAgeStartsAgain() {
        var writes = PendingWrites()
        writes.add(stored(1), for: "u1", at: start)
        let batch = writes.take()
        #expect(batch.urls == ["u1"])
        #expect(!writes.isDue(at: start + .seconds(10)))
        writes.add(stored(2), for: "u2", at: start + .seconds(10))
        #expect(!writes.isDue(at: start + .seconds(11)), "the age counts from the new batch's first write")
        #expect(writes.isDue(at: start + .seconds(12)))
    }
}
