import Foundation
import PMCache
import PMImaging
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
    /// reads misses and the deletes twice as slow. Sync keeps its small bound. Not more: a larger
    /// cache speeds up only the deletes, and a prune of 100 000 images must fit in 64 MB.
    static let pageCacheKibibytes = 4 << 10

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
        var (scan, images) = try await scanAndImages(rule)
        // The walk's lanes are done: what they held goes back before the plan's phases.
        FreedMemory.release()
        // Deleted since `scan` was taken: the next measure takes them off instead of walking again.
        var removed: [CachePath] = []

        // Documents a killed writer left naming files whose rows it dropped: rewritten before
        // those files can be taken as garbage.
        if let writer { try await Republisher(cache: writer).payOwedDocuments() }
        let ownFeedKeys = Set(try await index.feeds().map(\.key))
        let foreign = try await ForeignReferences.load(storage: storage, ownFeedKeys: ownFeedKeys)
        // During a sync, its files whose rows are not committed yet look like garbage.
        let unreferenced = rule.isDuringSync ? [] : try await garbage(scan: scan, images: images).filter { !foreign.contains($0.path) }
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
        (scan, report.othersBytes) = shared.owned(scan, images: images, ownFeedKeys: ownFeedKeys, collectable: garbage)
        report.usageBefore = scan.usage
        var usage = scan.usage - garbage.reduce(0) { $0 + $1.diskBytes }
        var goal = rule.goal(usage: usage, now: Date().timeIntervalSince1970)
        report.target = goal.targetBytes
        // On a disk that had no room, a small step first: its log and pages must fit in the reserve.
        var firstStep = writer?.releasedReserve == true
            ? goal.firstStep(usage: usage, step: Self.firstStepReserves * SpaceReserve(layout: layout).bytes) : nil
        for round in 0..<Self.maxRounds + (firstStep == nil ? 0 : 1) {
            if round > 0 {
                // The last round's columns go before the next ones are read, not after.
                images = EvictionImages()
                images = try await measuredImages(rule, scan: scan)
            }
            var plan = EvictionPolicy.plan(images: images, usage: usage, goal: firstStep ?? goal,
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
            let feedKeys = images.feedKeys(showing: plan.originals + plan.thumbnails)
            images.keepOnlyFiles()
            var known = KnownFiles(images: images, without: plan)
            // What the pages are rewritten beside is kept small: `known` makes the file list again.
            plan.files = []
            let dropped = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) },
                                                   feedKeys: feedKeys)
            (plan.originals, plan.thumbnails) = ([], [])
            known.warnings = try await index.originalWarnings()
            known.placeholders = try await index.placeholders(keptBy: known)
            // Each phase's leftovers go back before the next: glibc keeps freed memory resident,
            // and the phases' peaks would otherwise add up.
            FreedMemory.release()
            try await Republisher(cache: writer).republish(feedKeys: dropped.feedKeys, known: known, carding: !rule.isDuringSync)
            report.manifestsRewritten += dropped.feedKeys.count
            FreedMemory.release()
            let files = known.droppedFiles()
            let doomed = foreign.paths.isEmpty ? files : files.filter { !foreign.contains($0) }
            if deletes {
                let removal = await storage.remove(doomed)
                report.failures += removal.failures
                removed = removed.isEmpty ? removal.removed : removed + removal.removed
            } else {
                // Its rows are gone, so it is no longer this writer's; a live writer may have
                // picked it from its listing. A later prune collects it as garbage.
                report.filesKept += doomed.count
                removed = removed.isEmpty ? doomed : removed + doomed
            }
            // After the deletes, not beside them: on a full disk the compaction writes into the
            // room they free, and failing there it would leave the log for the next round to count.
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

    /// The images the index holds, sized by `scan`.
    private func measuredImages(_ rule: GoalRule, scan: DiskScan) async throws -> EvictionImages {
        var images = try await unmeasuredImages(rule)
        images.measure { scan.diskBytes(of: $0) }
        return images
    }

    private func unmeasuredImages(_ rule: GoalRule) async throws -> EvictionImages {
        let listing = rule.listing
        return try await index.evictionImages(listing: listing.feedKeys, at: listing.since)
    }

    /// The images the index holds, with the disk use of their files. The walk runs on its own
    /// threads while the index reads its rows, and the items that list the images are read at
    /// the same time through a second connection (`listingReferences`): that scan of the items
    /// table was the longest of the three. A function of its own so the `async let` keeps no
    /// second reference to the scan, which `remeasure` then changes in place.
    private func scanAndImages(_ rule: GoalRule) async throws -> (DiskScan, EvictionImages) {
        async let measured = storage.compactInventory()
        await index.boundPageCache(kibibytes: Self.pageCacheKibibytes)
        var images: EvictionImages
        if let reader = try? PhotoIndex(readingBesideWriter: layout.indexPath) {
            await reader.boundPageCache(kibibytes: Self.referencesPageCacheKibibytes)
            let listing = rule.listing
            async let references = reader.listingReferences(listing: listing.feedKeys, at: listing.since)
            images = try await index.storedImages()
            images.add(try await references)
        } else {
            images = try await unmeasuredImages(rule)
        }
        let scan = try await measured
        images.measure { scan.diskBytes(of: $0) }
        return (scan, images)
    }

    /// The second connection's page cache: it only scans the items table once.
    static let referencesPageCacheKibibytes = 256

    /// `garbage(in:images:)`, listing every file when a compact scan counted content files no
    /// row names: only a full listing tells which ones they are.
    private func garbage(scan: DiskScan, images: EvictionImages) async throws -> [CachedFile] {
        guard !scan.listsContentFiles, images.filesOnDisk != scan.contentFileCount else {
            return Self.garbage(in: scan, images: images)
        }
        return Self.garbage(in: try await storage.inventory(), images: images)
    }

    /// Temp files anywhere and content files no image's row names. Counting first: when every
    /// content file on disk is a file of `images` (the usual case), no set of 200 000 paths is
    /// built. `scan` lists the content files unless the counts match (`garbage(scan:images:)`).
    static func garbage(in scan: DiskScan, images: EvictionImages) -> [CachedFile] {
        // A table's paths are unique and each table's live under its own folder, so no file on
        // disk is matched twice, and equal counts mean no orphan.
        var orphans: [CachePath] = []
        if images.filesOnDisk != scan.contentFileCount {
            var indexed = Set<CachePath>()
            images.forEachFile { indexed.insert($0) }
            orphans = scan.contentFiles.filter { !indexed.contains($0) }.sorted { $0.description < $1.description }
        }
        return (scan.tempFiles.map { CachePath($0) } + orphans).map { CachedFile(path: $0, diskBytes: scan.diskBytes(of: $0) ?? 0) }
    }
}
