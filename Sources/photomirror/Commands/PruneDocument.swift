import Foundation
import PhotoMirror

/// A prune's part of a document (`prune --json`, and `prune` in `sync --json`): every key
/// always present, `null` where there is no value.
struct PruneFields: Encodable {
    let report: PruneReport

    enum CodingKeys: String, CodingKey {
        case limit, target, expired, unlisted, failures
        case usageBefore = "usage_before", usageAfter = "usage_after", bytesFreed = "bytes_freed"
        case originalsEvicted = "originals_evicted", thumbnailsEvicted = "thumbnails_evicted"
        case garbageRemoved = "garbage_removed", manifestsRewritten = "manifests_rewritten"
        case garbageKept = "garbage_kept", filesKept = "files_kept", othersBytes = "others_bytes"
        case reachedTarget = "reached_target", dryRun = "dry_run"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.limit, forKey: .limit)
        try container.encode(report.target, forKey: .target)
        try container.encode(report.expired, forKey: .expired)
        try container.encode(report.unlisted, forKey: .unlisted)
        try container.encode(report.failures, forKey: .failures)
        try container.encode(report.usageBefore, forKey: .usageBefore)
        try container.encode(report.usageAfter, forKey: .usageAfter)
        try container.encode(report.bytesFreed, forKey: .bytesFreed)
        try container.encode(report.originalsEvicted, forKey: .originalsEvicted)
        try container.encode(report.thumbnailsEvicted, forKey: .thumbnailsEvicted)
        try container.encode(report.garbageRemoved, forKey: .garbageRemoved)
        try container.encode(report.manifestsRewritten, forKey: .manifestsRewritten)
        try container.encode(report.garbageKept, forKey: .garbageKept)
        try container.encode(report.filesKept, forKey: .filesKept)
        try container.encode(report.othersBytes, forKey: .othersBytes)
        try container.encode(report.reachedTarget, forKey: .reachedTarget)
        try container.encode(report.dryRun, forKey: .dryRun)
    }
}

/// `prune --json`: the envelope and the prune's fields.
struct PruneDocument: Encodable {
    let envelope: JSONEnvelope
    let cache: String
    let prune: PruneFields

    func encode(to encoder: any Encoder) throws {
        try envelope.encode(to: encoder)
        try prune.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cache, forKey: .cache)
    }

    enum CodingKeys: String, CodingKey { case cache }
}
