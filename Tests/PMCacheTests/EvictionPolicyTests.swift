import Testing
@testable import PMCache

/// The eviction policy as a pure function over index rows: no disk, no SQLite.
@Suite struct EvictionPolicyTests {
    /// Index rows as a prune reads them, and the disk use of their files.
    struct Rows {
        var originals: [(sha: String, used: Double)] = []
        var thumbnails: [(sha: String, used: Double)] = []
        var references: [(sha: String, listedAt: Double)] = []
        var disk: [CachePath: Int] = [:]

        /// An image with a 100-unit original and a 1-unit 40x40 thumbnail, last used at `used`.
        mutating func add(_ sha: String, used: Double, original: Bool = true, thumbnail: Bool = true) {
            if original {
                originals.append((sha, used))
                disk[CachePath("originals/\(sha).jpg")] = 100
            }
            if thumbnail {
                thumbnails.append((sha, used))
                disk[EvictionImages.thumbnailPath(ImageHash(sha), size: "40x40")] = 1
            }
        }

        /// The images joined as prune joins them, sized by `disk`.
        func images(measured: Bool = true) -> EvictionImages {
            var images = EvictionImages()
            for (sha, used) in originals { images.addOriginal(ImageHash(sha), path: CachePath("originals/\(sha).jpg"), lastAccess: used) }
            for (sha, used) in thumbnails { images.addThumbnail(ImageHash(sha), size: "40x40", lastAccess: used) }
            for (sha, listedAt) in references { images.addReference(ImageHash(sha), listedAt: listedAt) }
            images.measure { measured ? disk[$0] : nil }
            return images
        }
    }

    /// The images joined as prune joins them; each is listed by a feed synced when it was last
    /// used, except those in `unlisted`.
    func blobs(_ images: [(String, Double)], references: [(sha: String, listedAt: Double)] = [], unlisted: Set<String> = [])
        -> EvictionImages
    {
        var rows = Rows(references: references)
        for (sha, used) in images {
            rows.add(sha, used: used)
            if !unlisted.contains(sha) { rows.references.append((sha, used)) }
        }
        return rows.images()
    }

    func thumbnail(_ sha: String) -> CachePath { EvictionImages.thumbnailPath(ImageHash(sha), size: "40x40") }

    @Test func originalsGoLeastRecentlyUsedFirstAndStopOnceItFits() {
        let images = blobs([("c", 30), ("a", 10), ("b", 20)])
        // 3 × 101 + 50 of index and pages = 353; to fit 200, two originals must go.
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 200))
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
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: goal)
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
        let first = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 51).firstStep(usage: 353, step: 150)!)
        #expect(first.originals == ["a", "b"], "two originals free the step; the rest waits")
    }

    @Test func whatTheDocumentsLoseWithAListedOriginalCountsTowardTheTarget() {
        let images = blobs([("c", 30), ("a", 10), ("b", 20)], unlisted: ["c"])
        // Each listed original frees its 100 bytes and, counted, 50 of its pages' and rows'.
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 200),
                                       documentBytesPerOriginal: 50)
        #expect(plan.originals == ["a", "b"], "the same two as without the count would be needed for 200")
        let closer = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 210),
                                         documentBytesPerOriginal: 50)
        #expect(closer.originals == ["a"], "one original and its documents' share bring 353 to 203")
        #expect(closer.usageAfter == 203)
        let unlistedOnly = EvictionPolicy.plan(images: blobs([("c", 30)], unlisted: ["c"]), usage: 151,
                                               goal: EvictionGoal(targetBytes: 100), documentBytesPerOriginal: 50)
        #expect(unlistedOnly.usageAfter <= 100 && unlistedOnly.originals == ["c"],
                "an image no feed lists has no page entry to shrink: its file alone counts")
    }

    @Test func thumbnailsGoOnlyWhenEveryOriginalIsNotEnough() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)])
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.originals == ["a", "b", "c"])
        #expect(plan.thumbnails == ["a", "b"], "the oldest thumbnails, and only as many as needed")
        #expect(plan.usageAfter == 51)
    }

    @Test func anImageSharedWithARecentFeedStaysWhileOlderOnesGo() {
        // "shared" was last touched long ago, but a feed synced at 100 still lists it.
        let references: [(sha: String, listedAt: Double)] = [("shared", 5), ("shared", 100), ("oldonly", 5)]
        let images = blobs([("shared", 1), ("oldonly", 2), ("newonly", 90)], references: references)
        #expect(images.position(of: "shared").map { images.lastUsed[$0] } == 100)
        let plan = EvictionPolicy.plan(images: images, usage: 303, goal: EvictionGoal(targetBytes: 150))
        #expect(plan.originals == ["oldonly", "newonly"])
    }

    @Test func anImageNoFeedListsGoesWholeInItsTurn() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)], unlisted: ["a"])
        #expect(Set(images.hashes.indices.filter { !images.isListed($0) }.map { images.hashes[$0] }) == ["a"])
        // 353 - 101 (all of a) - 100 (b's original) = 152 fits 160; c is not reached.
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 160))
        #expect(plan.originals == ["a", "b"])
        #expect(plan.thumbnails == ["a"], "no page shows an unlisted image's thumbnail; b's stays for its item")
        #expect(plan.unlisted == 1)
        #expect(plan.usageAfter == 152)
        #expect(plan.files == ["originals/a.jpg", thumbnail("a"), "originals/b.jpg"])
    }

    @Test func anUnlistedImagesLeftoverThumbnailGoesBeforeNewerOriginals() {
        var rows = Rows()
        rows.add("left", used: 5, original: false)
        rows.add("kept", used: 50)
        rows.references = [("kept", 50)]
        let images = rows.images()
        let plan = EvictionPolicy.plan(images: images, usage: 152, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.thumbnails == ["left"], "an evicted-original image that lost its items")
        #expect(plan.originals == ["kept"])
        #expect(plan.usageAfter == 51)
    }

    @Test func thumbnailsBeyondEveryOriginalAreNeverPlannedTwice() {
        let images = blobs([("a", 10), ("b", 20), ("c", 30)], unlisted: ["a"])
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 50))
        #expect(plan.thumbnails == ["a", "b", "c"])
        #expect(plan.usageAfter == 50)
    }

    @Test func referencesToImagesNoLongerStoredAreIgnored() {
        let images = blobs([("a", 1)], references: [("gone", 9)])
        #expect(images.hashes == ["a"])
    }

    @Test func maxAgeExpiresWholeImagesFirstEvenUnderTheLimit() {
        let images = blobs([("old", 10), ("older", 5), ("new", 100)])
        let plan = EvictionPolicy.plan(images: images, usage: 353,
                                       goal: .prune(limit: 10_000, maxAge: 50, usage: 353, now: 120))
        #expect(plan.originals == ["older", "old"])
        #expect(plan.thumbnails == ["older", "old"])
        #expect(plan.expired == 2)
        #expect(plan.usageAfter == 151)
    }

    @Test func expiryThenSizeBothApply() {
        let images = blobs([("a", 10), ("b", 60), ("c", 70)])
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: .prune(limit: 200, maxAge: 100, usage: 353, now: 150))
        #expect(plan.originals == ["a", "b"])
        #expect(plan.thumbnails == ["a"])
        #expect(plan.expired == 1)
    }

    @Test func aLimitNoEvictionCanReachIsReported() {
        let images = blobs([("a", 10)])
        let plan = EvictionPolicy.plan(images: images, usage: 151, goal: EvictionGoal(targetBytes: 20))
        #expect(plan.originals == ["a"])
        #expect(plan.thumbnails == ["a"])
        #expect(!plan.reachesTarget)
        #expect(plan.usageAfter == 50)
    }

    @Test func nothingIsEvictedUnderTheLimitOrWithoutAGoal() {
        let images = blobs([("a", 10), ("b", 20)])
        #expect(EvictionPolicy.plan(images: images, usage: 252, goal: EvictionGoal(targetBytes: 252)).isEmpty)
        #expect(EvictionPolicy.plan(images: images, usage: 252, goal: EvictionGoal()).isEmpty)
    }

    @Test func filesMissingOnDiskFreeNothingButStillGoInOrder() {
        var rows = Rows()
        rows.add("a", used: 1)
        let images = rows.images(measured: false)
        let plan = EvictionPolicy.plan(images: images, usage: 100, goal: EvictionGoal(targetBytes: 50))
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
        let plan = EvictionPolicy.plan(images: images, usage: 101_000, goal: goal)
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
        let fits = EvictionPolicy.plan(images: images, usage: 101_000, goal: EvictionGoal(targetBytes: 701))
        #expect(fits.originals.count == 1000)
        #expect(Set(fits.thumbnails) == Set((0..<300).map { ImageHash("\($0)") }), "only the unlisted ones' thumbnails")
        #expect(fits.reachesTarget)
        let tooSmall = EvictionPolicy.plan(images: images, usage: 101_000, goal: EvictionGoal(targetBytes: 600))
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
        let plan = EvictionPolicy.plan(images: images, usage: 353, goal: EvictionGoal(targetBytes: 51))
        #expect(plan.files == ["originals/a.jpg", "originals/b.jpg", thumbnail("a"), thumbnail("b")])
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
        let plan = EvictionPolicy.plan(images: forward, usage: 303, goal: EvictionGoal(targetBytes: 200))
        let reversed = EvictionPolicy.plan(images: blobs([("c", 5), ("b", 5), ("a", 5)]), usage: 303,
                                           goal: EvictionGoal(targetBytes: 200))
        #expect(plan == reversed)
        #expect(plan.originals == ["a", "b"])
    }

    /// The order a plan evicts in, against the comparison it stands for: by last use, then by
    /// the hashes themselves. Few distinct times, so most pairs tie; packed hashes that share
    /// their first 16 digits, and text hashes among them.
    @Test func theAgeOrderIsByLastUseThenByHash() {
        var generator = SystemRandomNumberGenerator()
        func hex(_ count: Int) -> String {
            String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &generator)! })
        }
        let sharedStart = hex(16)
        var images = EvictionImages()
        for number in 0..<3000 {
            let sha = switch number % 10 {
            case 0: "text-\(number)"
            case 1, 2: sharedStart + hex(48)
            default: hex(64)
            }
            images.addOriginal(ImageHash(sha), path: CachePath("originals/\(sha).jpg"), lastAccess: Double(Int.random(in: 0..<4)))
        }
        let expected = images.hashes.indices.sorted { left, right in
            images.lastUsed[left] != images.lastUsed[right] ? images.lastUsed[left] < images.lastUsed[right]
                : images.hashes[left] < images.hashes[right]
        }
        #expect(EvictionPolicy.ageOrder(images).map(Int.init) == expected)
    }
}
