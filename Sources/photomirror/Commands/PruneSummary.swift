import Foundation
import PhotoMirror
import Synchronization

/// The words and JSON a prune prints (alone, or after a `sync --max`).
enum PruneSummary {
    static func text(_ report: PruneReport, elapsed: Double? = nil) -> String {
        var text = ""
        for failure in report.failures { text += "could not delete \(failure)\n" }
        let verb = report.dryRun ? "would evict" : "evicted"
        var line = report.dryRun ? "prune (dry run): " : "prune: "
        line += "\(Output.bytes(report.usageBefore)) → \(Output.bytes(report.usageAfter))"
        if let limit = report.limit { line += " (limit \(Output.bytes(limit))" }
        if let target = report.target, target != report.limit { line += ", trimmed to \(Output.bytes(target))" }
        if report.limit != nil { line += ")" }
        line += "; \(verb) \(counted(report.originalsEvicted, "original")) and the thumbnails of \(counted(report.thumbnailsEvicted, "image"))"
        let reasons = [(report.expired, "expired by age"), (report.unlisted, "listed by no feed")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !reasons.isEmpty { line += " (\(reasons.joined(separator: ", ")))" }
        if report.garbageRemoved > 0 { line += "; \(report.dryRun ? "would remove" : "removed") \(counted(report.garbageRemoved, "garbage file"))" }
        if report.manifestsRewritten > 0 { line += "; \(report.manifestsRewritten) manifests rewritten" }
        if report.garbageKept > 0 { line += "; kept \(report.garbageKept) unreferenced files (in their grace period, or another writer is live)" }
        if report.filesKept > 0 { line += "; left \(report.filesKept) evicted files in place while another writer is live" }
        if report.othersBytes > 0 { line += "; other writers hold \(Output.bytes(report.othersBytes)) of the storage" }
        if let elapsed { line += " in \(String(format: "%.1f", elapsed)) s" }
        text += line + "\n"
        if !report.reachedTarget, let target = report.target {
            text += "prune: the cache is still over \(Output.bytes(target)): nothing evictable is left "
                + "(the index, manifests and gallery alone take \(Output.bytes(report.usageAfter)))\n"
        }
        return text
    }
}

/// Holds the report of the prune a `sync --max` ran, to print after the sync's summary.
final class PruneCapture: Sendable {
    private let stored = Mutex<PruneReport?>(nil)

    func keep(_ report: PruneReport) { stored.withLock { $0 = report } }
    var report: PruneReport? { stored.withLock { $0 } }
}
