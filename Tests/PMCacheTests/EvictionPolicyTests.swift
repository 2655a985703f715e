import Testing
@testable import PMCache

/// The eviction policy as a pure function over index rows: no disk, no SQLite.
@Suite struct EvictionPolicyTests {
    /// An image with a 100-unit original and a 1-unit thumbnail, last used at `used`.
    func rows(_ sha: String, used: Double, original: Int = 100, thumbnail: Int = 1)
        -> (IndexedFileRow, IndexedFileRow, [CachePath: Int])
    {
        let originalPath = CachePath("originals/\(sha).jpg"), thumbnailPath = CachePath("thumbs/40x40/\(sha).png")
        return (IndexedFileRow(sha256: ImageHash(sha), path: originalPath, lastAccess: used),
                IndexedFileRow(sha256: ImageHash(sha), path: thumbnailPath, lastAccess: used),
                [originalPath: original, thumbnailPath: thumbnail])
    }

    /// The images joined as prune joins them; each is listed by a feed synced when it was last
    /// used, except those in `unlisted`.
    func blobs(_ images: [(String, Double)], references: [BlobReference] = [], unlisted: Set<String> = [])
        -> [CachedBlob]
    {
        var stored = EvictionRows(references: references), disk: [CachePath: Int] = [:]
        for (sha, used) in images {
            let (original, thumbnail, sizes) = rows(sha, used: used)
            stored.originals.append(original)
            stored.thumbnails.append(thumbnail)
            if !unlisted.contains(sha) { stored.references.append(BlobReference(sha256: ImageHash(sha), listedAt: used)) }
            disk.merge(sizes) { $1 }
        }
        return EvictionPolicy.blobs(stored, diskBytes: disk)
    }

    @Test func originalsGoLeastRecentlyUsedFirstAndStopOnceItFits() {
        let images = blobs([("c", 30), ("a", 10), ("b", 20)])
        // 3 × 101 + 50 of index and pages = 353; to fit 200, two originals must go.
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 200))
        #expect(plan.originals == ["a", "b"])
        #expect(plan.thumbnails.isEmpty)
        #expect(plan.usageAfter == 153)
        #expect(plan.bytesFreed == 200)
        #expect(plan.reachesTarget)
    }

    @Test func aPruneDuringASyncSparesWhatTheSyncUsedWhateverTheSize() {
        // "stored" and "listed" were used at or after the sync's start (50): only "old" may go,
        // though the target needs more, and even an unlisted image the sync stored stays whole.
        let images = blobs([("old", 10), ("stored", 60), ("listed", 50)], unlisted: ["stored"])
        let goal = EvictionGoal.duringSync(limit: 100, usage: 353, syncStart: 50)
        #expect(goal.targetBytes == 80)
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: goal)
        #expect(plan.originals == ["old"])
        #expect(plan.thumbnails == ["old"], "its thumbnail too, as nothing else may go")
        #expect(!plan.reachesTarget)
        #expect(EvictionGoal.duringSync(limit: 400, usage: 353, syncStart: 50) == EvictionGoal(), "under the limit: nothing")
    }

    @Test func theFirstStepOnAFullDiskFreesAtMostItsStepBySizeAlone() {
        #expect(EvictionGoal(targetBytes: 100).firstStep(usage: 1000, step: 300) == EvictionGoal(targetBytes: 700))
        #expect(EvictionGoal(targetBytes: 900).firstStep(usage: 1000, step: 300) == EvictionGoal(targetBytes: 900),
                "a goal closer than the step is the step")
        #expect(EvictionGoal(expireBefore: 50).firstStep(usage: 1000, step: 300) == EvictionGoal(targetBytes: 700),
                "an expiry waits for the next rounds")
        #expect(EvictionGoal().firstStep(usage: 1000, step: 300) == nil)
        let images = blobs([("a", 10), ("b", 20), ("c", 30)])
        let first = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 51).firstStep(usage: 353, step: 150)!)
        #expect(first.originals == ["a", "b"], "two originals free the step; the rest waits")
    }

    @Test func whatTheDocumentsLoseWithAListedOriginalCountsTowardTheTarget() {
        let images = blobs([("c", 30), ("a", 10), ("b", 20)], unlisted: ["c"])
        // Each listed original frees its 100 bytes and, counted, 50 of its pages' and rows'.
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 200),
                                       documentBytesPerOriginal: 50)
        #expect(plan.originals == ["a", "b"], "the same two as without the count would be needed for 200")
        let closer = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 210),
                                         documentBytesPerOriginal: 50)
        #expect(closer.originals == ["a"], "one original and its documents' share bring 353 to 203")
        #expect(closer.usageAfter == 203)
        let unlistedOnly = EvictionPolicy.plan(blobs: blobs([("c", 30)], unlisted: ["c"]), usage: 151,
                                               goal: EvictionGoal(targetBytes: 100), documentBytesPerOriginal: 50)
        #expect(unlistedOnly.usageAfter <= 100 && unlistedOnly.originals == ["c"],
                "an image no feed lists has no page entry to shrink: its file alone counts")
    }

    @Test func thumbnailsGoOnlyWhenEveryOriginalIsNotEnough() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)])
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.originals == ["a", "b", "c"])
        #expect(plan.thumbnails == ["a", "b"], "the oldest thumbnails, and only as many as needed")
        #expect(plan.usageAfter == 51)
    }

    @Test func anImageSharedWithARecentFeedStaysWhileOlderOnesGo() {
        // "shared" was last touched long ago, but a feed synced at 100 still lists it.
        let references = [BlobReference(sha256: "shared", listedAt: 5),
                          BlobReference(sha256: "shared", listedAt: 100),
                          BlobReference(sha256: "oldonly", listedAt: 5)]
        let images = blobs([("shared", 1), ("oldonly", 2), ("newonly", 90)], references: references)
        #expect(images.first { $0.sha256 == "shared" }?.lastUsed == 100)
        let plan = EvictionPolicy.plan(blobs: images, usage: 303, goal: EvictionGoal(targetBytes: 150))
        #expect(plan.originals == ["oldonly", "newonly"])
    }

    @Test func anImageNoFeedListsGoesWholeInItsTurn() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)], unlisted: ["a"])
        #expect(Set(images.filter { !$0.isListed }.map(\.sha256)) == ["a"])
        // 353 - 101 (all of a) - 100 (b's original) = 152 fits 160; c is not reached.
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 160))
        #expect(plan.originals == ["a", "b"])
        #expect(plan.thumbnails == ["a"], "no page shows an unlisted image's thumbnail; b's stays for its item")
        #expect(plan.unlisted == 1)
        #expect(plan.usageAfter == 152)
        #expect(plan.files == ["originals/a.jpg", "thumbs/40x40/a.png", "originals/b.jpg"])
    }

    @Test func anUnlistedImagesLeftoverThumbnailGoesBeforeNewerOriginals() {
        var stored = EvictionRows()
        let (_, leftover, leftoverSizes) = rows("left", used: 5)
        let (original, thumbnail, sizes) = rows("kept", used: 50)
        stored.thumbnails = [leftover, thumbnail]
        stored.originals = [original]
        stored.references = [BlobReference(sha256: "kept", listedAt: 50)]
        let images = EvictionPolicy.blobs(stored, diskBytes: leftoverSizes.merging(sizes) { $1 })
        let plan = EvictionPolicy.plan(blobs: images, usage: 152, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.thumbnails == ["left"], "an evicted-original image that lost its items")
        #expect(plan.originals == ["kept"])
        #expect(plan.usageAfter == 51)
    }

    @Test func thumbnailsBeyondEveryOriginalAreNeverPlannedTwice() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)], unlisted: ["a"])
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 50))
        #expect(plan.thumbnails == ["a", "b", "c"])
        #expect(plan.usageAfter == 50)
    }

    @Test func referencesToImagesNoLongerStoredAreIgnored() {
        let images = blobs([("a", 1)], references: [BlobReference(sha256: "gone", listedAt: 9)])
        #expect(images.map(\.sha256) == ["a"])
    }

    @Test func maxAgeExpiresWholeImagesFirstEvenUnderTheLimit() {
        let images = blobs([("old", 10), ("older", 5), ("new", 100)])
        let plan = EvictionPolicy.plan(blobs: images, usage: 353,
                                       goal: .prune(limit: 10_000, maxAge: 50, usage: 353, now: 120))
        #expect(plan.originals == ["older", "old"])
        #expect(plan.thumbnails == ["older", "old"])
        #expect(plan.expired == 2)
        #expect(plan.usageAfter == 151)
    }

    @Test func expiryThenSizeBothApply() {
        let images = blobs([("a", 10), ("b", 60), ("c", 70)])
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: .prune(limit: 200, maxAge: 100, usage: 353, now: 150))
        #expect(plan.originals == ["a", "b"])
        #expect(plan.thumbnails == ["a"])
        #expect(plan.expired == 1)
    }

    @Test func aLimitNoEvictionCanReachIsReported() {
        let images = blobs([("a", 10)])
        let plan = EvictionPolicy.plan(blobs: images, usage: 151, goal: EvictionGoal(targetBytes: 20))
        #expect(plan.originals == ["a"])
        #expect(plan.thumbnails == ["a"])
        #expect(!plan.reachesTarget)
        #expect(plan.usageAfter == 50)
    }

    @Test func nothingIsEvictedUnderTheLimitOrWithoutAGoal() {
        let images = blobs([("a", 10), ("b", 20)])
        #expect(EvictionPolicy.plan(blobs: images, usage: 252, goal: EvictionGoal(targetBytes: 252)).isEmpty)
        #expect(EvictionPolicy.plan(blobs: images, usage: 252, goal: EvictionGoal()).isEmpty)
    }

    @Test func filesMissingOnDiskFreeNothingButStillGoInOrder() {
        let (original, thumbnail, _) = rows("a", used: 1)
        let images = EvictionPolicy.blobs(EvictionRows(originals: [original], thumbnails: [thumbnail]), diskBytes: [:])
        let plan = EvictionPolicy.plan(blobs: images, usage: 100, goal: EvictionGoal(targetBytes: 50))
        #expect(plan.originals == ["a"])
        #expect(plan.bytesFreed == 0)
        #expect(!plan.reachesTarget)
    }

    @Test func pruneOfManySmallImagesEndsBetweenThreeQuartersOfItsTargetAndTheTarget() throws {
        let images = blobs((0..<1000).map { ("\($0)", Double($0)) })
        let limit = 60_000
        let goal = EvictionGoal.prune(limit: limit, maxAge: nil, usage: 101_000, now: 0)
        let target = try #require(goal.targetBytes)
        #expect(target == 48_000, "80% of the limit")
        let plan = EvictionPolicy.plan(blobs: images, usage: 101_000, goal: goal)
        #expect(plan.usageAfter <= target)
        #expect(plan.usageAfter >= target * 3 / 4)
        #expect(plan.thumbnails.isEmpty, "originals alone are enough: every listed thumbnail stays")
        #expect(plan.originals == (0..<plan.originals.count).map { ImageHash("\($0)") }, "strictly oldest first")
    }

    @Test func pruneAndSyncDecideBySameRule() {
        for usage in [0, 799, 800, 801, 999, 1000, 1001, 5000] {
            let prune = EvictionGoal.prune(limit: 1000, maxAge: nil, usage: usage, now: 0)
            #expect(prune == EvictionGoal.afterSync(limit: 1000, usage: usage), "usage \(usage)")
            #expect(prune.targetBytes == EvictionGoal.duringSync(limit: 1000, usage: usage, syncStart: 5).targetBytes,
                    "usage \(usage)")
        }
        #expect(EvictionGoal.prune(limit: 1000, maxAge: nil, usage: 1001, now: 0).targetBytes == 800)
        #expect(EvictionGoal.prune(limit: 1000, maxAge: nil, usage: 900, now: 0) == EvictionGoal(), "fits: nothing to do")
    }

    @Test func listedThumbnailsGoOnlyWhenThumbnailsAloneExceedTheTarget() {
        // 1000 images: originals 100 000, thumbnails 1000, of which the oldest 300 are unlisted.
        let images = blobs((0..<1000).map { ("\($0)", Double($0)) }, unlisted: Set((0..<300).map { "\($0)" }))
        let fits = EvictionPolicy.plan(blobs: images, usage: 101_000, goal: EvictionGoal(targetBytes: 701))
        #expect(fits.originals.count == 1000)
        #expect(Set(fits.thumbnails) == Set((0..<300).map { ImageHash("\($0)") }), "only the unlisted ones' thumbnails")
        #expect(fits.reachesTarget)
        let tooSmall = EvictionPolicy.plan(blobs: images, usage: 101_000, goal: EvictionGoal(targetBytes: 600))
        #expect(tooSmall.thumbnails.count == 400, "the 300 unlisted, then the oldest 100 listed")
        #expect(tooSmall.usageAfter == 600)
    }

    @Test func afterASyncNothingHappensUnderTheLimitAndOverItTrimsToEightyPercent() {
        #expect(EvictionGoal.afterSync(limit: 1000, usage: 1000) == EvictionGoal())
        #expect(EvictionGoal.afterSync(limit: 1000, usage: 1001).targetBytes == 800)
        #expect(EvictionGoal.afterSync(limit: 1000, usage: 900, wentOver: true).targetBytes == 800,
                "pruned on the way: it ends at 80% too")
        #expect(EvictionGoal.afterSync(limit: 1000, usage: 800, wentOver: true) == EvictionGoal())
    }

    @Test func thePlanListsTheFilesToDeleteInOrder() {
        let images = blobs([("b", 20), ("a", 10)])
        let plan = EvictionPolicy.plan(blobs: images, usage: 353, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.files == ["originals/a.jpg", "originals/b.jpg", "thumbs/40x40/a.png", "thumbs/40x40/b.png"])
    }

    @Test func sha256HashesPackAndSortLikeTheirText() {
        let hashes = ["f0" + String(repeating: "0", count: 62), String(repeating: "0", count: 63) + "1",
                      "a" + String(repeating: "f", count: 63), "not-a-hash"]
        let sorted = hashes.map { ImageHash($0) }.sorted()
        #expect(sorted.map(\.description) == hashes.sorted())
        #expect(ImageHash(hashes[0]) == ImageHash(hashes[0]))
        guard case .packed = ImageHash(hashes[0]), case .text = ImageHash("F0" + String(repeating: "0", count: 62)) else {
            Issue.record("only lower-case hex of 64 digits packs")
            return
        }
    }

    @Test func theSamePlanForTheSameRowsWhateverTheirOrder() {
        let forward = blobs([("a", 5), ("b", 5), ("c", 5)])
        let plan = EvictionPolicy.plan(blobs: forward, usage: 303, goal: EvictionGoal(targetBytes: 200))
        let reversed = EvictionPolicy.plan(blobs: forward.reversed(), usage: 303, goal: EvictionGoal(targetBytes: 200))
        #expect(plan == reversed)
        #expect(plan.originals == ["a", "b"])
    }
}
