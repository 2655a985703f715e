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
    let index: PhotoIndex
    /// The locked cache to change; nil for a dry run, which only plans.
    let writer: OpenCache?

    /// Rounds of plan → apply → measure. Rewritten manifests and the index itself change size a
    /// little, so a second round may trim what the first one's estimate missed.
    static let maxRounds = 3

    func run(_ rule: GoalRule) async throws -> PruneReport {
        var report = PruneReport()
        report.limit = rule.limit
        report.dryRun = writer == nil
        // The walk runs on its own threads while the index reads its rows.
        async let measured = DiskScan.measure(layout)
        var rows = try await index.allFiles()
        var scan = try await measured
        report.usageBefore = scan.usage
        var usage = scan.usage

        let garbage = Self.garbage(in: scan, indexed: rows)
        report.garbageRemoved = garbage.count
        usage -= garbage.reduce(0) { $0 + $1.diskBytes }
        if let writer, !garbage.isEmpty {
            // Safe only under the writers' lock: no writer is between renaming a file into
            // place and committing its row.
            report.failures += await FileRemover(layout: writer.layout).remove(garbage.map(\.path))
        }
        var goal = rule.goal(usage: usage, now: Date().timeIntervalSince1970)
        report.target = goal.targetBytes
        for round in 0..<Self.maxRounds {
            if round > 0 { rows = try await index.allFiles() }
            let blobs = EvictionPolicy.blobs(originals: rows.originals, thumbnails: rows.thumbnails,
                                             references: try await index.blobReferences(), diskBytes: scan.files)
            let plan = EvictionPolicy.plan(blobs: blobs, usage: usage, goal: goal)
            report.originalsEvicted += plan.originals.count
            report.thumbnailsEvicted += plan.thumbnails.count
            report.expired += plan.expired
            guard let writer, !plan.isEmpty else {
                usage = plan.usageAfter
                break
            }
            let dropped = try await index.dropRows(originals: plan.originals, thumbnails: plan.thumbnails.map { ($0, nil) })
            try await Republisher(cache: writer).republish(feedKeys: dropped.feedKeys)
            report.manifestsRewritten += dropped.feedKeys.count
            report.failures += await FileRemover(layout: layout).remove(dropped.paths)
            await index.checkpoint()
            scan = try await DiskScan.measure(layout)
            usage = scan.usage
            goal.expireBefore = nil
            guard let target = goal.targetBytes, usage > target else { break }
        }
        report.usageAfter = usage
        report.reachedTarget = goal.targetBytes.map { usage <= $0 } ?? true
        return report
    }

    /// Temp files anywhere and content files no row names.
    static func garbage(in scan: DiskScan, indexed rows: (originals: [OriginalRecord], thumbnails: [ThumbnailRecord]))
        -> [CachedFile]
    {
        let indexed = Set(rows.originals.map(\.path)).union(rows.thumbnails.map(\.path))
        let orphans = scan.contentFiles.filter { !indexed.contains($0) }
        return (scan.tempFiles + orphans).map { CachedFile(path: $0, diskBytes: scan.files[$0] ?? 0) }
    }
}
