import Foundation
import PMCache
import PMSupport

/// One prune over an open cache: measure, plan, apply, measure again.
///
/// Crash safety comes from the order of every step: index rows are dropped first, then the
/// manifests and gallery are rewritten from the index, and only then are files deleted. Killed
/// at any instant, the cache holds at worst files no row names (garbage), never a row or a
/// manifest naming a missing file (damage).
struct PruneRun: Sendable {
    let layout: CacheLayout
    let storage: any CacheStorage
    let index: PhotoIndex
    /// The locked cache to change; nil for a dry run, which only plans.
    let writer: OpenCache?
    /// Seconds an unreferenced object of a shared storage is kept (`--garbage-grace`).
    var garbageGrace = SharedStorage.defaultGrace
    /// This writer's heartbeat in a shared storage, through which it deletes (`HeartbeatKeeper`).
    var heartbeat: HeartbeatKeeper?

    /// SQLite's page cache for a prune, verify or repair (the default is 2 MB): these read every
    /// file row and delete tens of thousands, and at 100 000 images the default makes most page
    /// reads misses and the deletes twice as slow. Sync keeps its small bound.
    static let pageCacheKibibytes = 24 << 10

    /// Rounds of plan → apply → measure. Rewritten manifests and the index itself change size a
    /// little, so a second round may trim what the first one's estimate missed.
    static let maxRounds = 3

    /// What the first round frees at most on a disk that had no room, in reserves' worth.
    static let firstStepReserves = 4

    func run(_ rule: GoalRule) async throws -> PruneReport {
        let shared = SharedStorage(isShared: storage.sharedByWriters, grace: garbageGrace)
        guard shared.isShared else { return try await run(rule, shared: shared, deletes: true) }
        guard writer != nil, let heartbeat else {
            return try await run(rule, shared: shared, deletes: !(try await WriterHeartbeat.othersLive(in: storage, except: nil)))
        }
        // Before the listing and the manifests are read: see `WriterHeartbeat`.
        let exclusive = try await heartbeat.beginDeleting()
        do {
            var report = try await run(rule, shared: shared, deletes: exclusive)
            if exclusive {
                report.failures += await storage.remove(try await WriterHeartbeat.stale(in: storage, olderThan: garbageGrace)).failures
                await heartbeat.endDeleting()
            }
            return report
        } catch {
            if exclusive { await heartbeat.endDeleting() }
            throw error
        }
    }

    /// `deletes`: whether files may be deleted (in a shared storage, no other writer was live).
    private func run(_ rule: GoalRule, shared: SharedStorage, deletes: Bool) async throws -> PruneReport {
        var report = PruneReport()
        report.limit = rule.limit
        report.dryRun = writer == nil
        // The log of the writes before (a sync's own) empties at the first checkpoint, which the
        // plan would otherwise count as disk to free: the prune would end below its target by it,
        // and a prune after a sync would leave other files than a `prune` of the same cache.
        if writer != nil { await index.checkpoint() }
        var (scan, blobs) = try await scanAndBlobs(rule)
        // Deleted since `scan` was taken: the next measure takes them off instead of walking again.
        var removed: [CachePath] = []

        // Documents a killed writer left naming files whose rows it dropped: rewritten before
        // those files can be taken as garbage.
        if let writer { try await Republisher(cache: writer).payOwedDocuments() }
        let ownFeedKeys = Set(try await index.feeds().map(\.key))
        let foreign = try await ForeignReferences.load(storage: storage, ownFeedKeys: ownFeedKeys)
        // During a sync, its files whose rows are not committed yet look like garbage.
        let unreferenced = rule.isDuringSync ? [] : Self.garbage(in: scan, blobs: blobs).filter { !foreign.contains($0.path) }
        var garbage = shared.collectable(unreferenced, scan: scan, now: Date().timeIntervalSince1970)
        if !deletes {
            garbage = []
        } else if writer != nil, !garbage.isEmpty {
            // Safe only under the writers' lock: no writer is between renaming a file into
            // place and committing its row. In a shared storage, only while no other writer is live.
            let removal = await storage.remove(garbage.map(\.path))
            report.failures += removal.failures
            removed += removal.removed
        }
        report.garbageRemoved = garbage.count
        report.garbageKept = unreferenced.count - garbage.count
        // In a shared storage the limit covers this writer's share only.
        (scan, report.othersBytes) = shared.owned(scan, blobs: blobs, ownFeedKeys: ownFeedKeys, collectable: garbage)
        report.usageBefore = scan.usage
        var usage = scan.usage - garbage.reduce(0) { $0 + $1.diskBytes }
        var goal = rule.goal(usage: usage, now: Date().timeIntervalSince1970)
        report.target = goal.targetBytes
        // On a disk that had no room, a small step first: its log and pages must fit in the reserve.
        var firstStep = writer?.releasedReserve == true
            ? goal.firstStep(usage: usage, step: Self.firstStepReserves * SpaceReserve(layout: layout).bytes) : nil
        for round in 0..<Self.maxRounds + (firstStep == nil ? 0 : 1) {
            if round > 0 { blobs = EvictionPolicy.blobs(try await evictionRows(rule), diskBytes: scan.files) }
            let plan = EvictionPolicy.plan(blobs: blobs, usage: usage, goal: firstStep ?? goal,
                                           documentBytesPerOriginal: EvictionPolicy.listedOriginalDocumentBytes)
            report.originalsEvicted += plan.originals.count
            report.thumbnailsEvicted += plan.thumbnails.count
            report.expired += plan.expired
            report.unlisted += plan.unlisted
            guard let writer, !plan.isEmpty else {
                // Nothing to take by size: the whole goal (an expiry) may still have something.
                if firstStep != nil {
                    firstStep = nil
                    continue
                }
                usage = plan.usageAfter
                break
            }
            // The rows left are the ones in hand less the dropped: the pages are written from them.
            async let kept = KnownFiles(blobs: blobs, without: plan)
            let dropped = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) })
            var known = await kept
            known?.warnings = try await index.originalWarnings()
            known?.placeholders = try await index.originalPlaceholders()
            try await Republisher(cache: writer).republish(feedKeys: dropped.feedKeys, known: known, carding: !rule.isDuringSync)
            report.manifestsRewritten += dropped.feedKeys.count
            let doomed = plan.files.filter { !foreign.contains($0) }
            if deletes {
                let removal = await storage.remove(doomed)
                report.failures += removal.failures
                removed += removal.removed
            } else {
                // Its rows are gone, so it is no longer this writer's; a live writer may have
                // picked it from its listing. A later prune collects it as garbage.
                report.filesKept += doomed.count
                removed += doomed
            }
            await index.checkpoint()
            scan = try await storage.inventory(scan, afterRemoving: removed)
            removed = []
            usage = scan.usage
            if firstStep != nil {
                firstStep = nil
                continue
            }
            goal.expireBefore = nil
            guard let target = goal.targetBytes, usage > target else { break }
        }
        report.usageAfter = usage
        report.reachedTarget = goal.targetBytes.map { usage <= $0 } ?? true
        // A prune that freed room gives the disk's reserve back, if it was released.
        if writer != nil { SpaceReserve(layout: layout).restoreIfRoom() }
        return report
    }

    private func evictionRows(_ rule: GoalRule) async throws -> EvictionRows {
        let listing = rule.listing
        return try await index.evictionRows(listing: listing.feedKeys, at: listing.since)
    }

    /// The images the index holds, with the disk use of their files. The walk runs on its own
    /// threads while the index reads its rows. A function of its own so the `async let` keeps no
    /// second reference to the scan, which `remeasure` then changes in place.
    private func scanAndBlobs(_ rule: GoalRule) async throws -> (DiskScan, [CachedBlob]) {
        async let measured = storage.inventory()
        await index.boundPageCache(kibibytes: Self.pageCacheKibibytes)
        let rows = try await evictionRows(rule)
        let scan = try await measured
        return (scan, EvictionPolicy.blobs(rows, diskBytes: scan.files))
    }

    /// Temp files anywhere and content files no image's row names. Counting first: when every
    /// content file on disk is a file of `blobs` (the usual case), no set of 200 000 paths is built.
    static func garbage(in scan: DiskScan, blobs: [CachedBlob]) -> [CachedFile] {
        // A table's paths are unique and each table's live under its own folder, so no file on
        // disk is matched twice, and equal counts mean no orphan. An empty file (0 bytes) is not
        // counted; the exact comparison below then settles it.
        func counts(_ file: CachedFile, original: Bool) -> Bool {
            guard file.diskBytes > 0, file.path.isOriginal == original else { return false }
            if case .text(let text) = file.path { return !DiskScan.isTemp(text) }
            return true
        }
        var matched = 0
        for blob in blobs {
            if let original = blob.original, counts(original, original: true) { matched += 1 }
            for thumbnail in blob.thumbnails where counts(thumbnail, original: false) { matched += 1 }
        }
        var orphans: [CachePath] = []
        if matched != scan.contentFileCount {
            var indexed = Set<CachePath>()
            for blob in blobs {
                if let original = blob.original { indexed.insert(original.path) }
                for thumbnail in blob.thumbnails { indexed.insert(thumbnail.path) }
            }
            orphans = scan.contentFiles.filter { !indexed.contains($0) }.sorted { $0.description < $1.description }
        }
        return (scan.tempFiles.map { CachePath($0) } + orphans).map { CachedFile(path: $0, diskBytes: scan.files[$0] ?? 0) }
    }
}
