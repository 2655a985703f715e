import Foundation
import PhotoMirror

/// `photomirror stats`: what the cache holds, as text or JSON. Never waits for a writer.
struct StatsCommand {
    let arguments: Arguments

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.stats.flags)
        guard arguments.operands.isEmpty else { throw UsageError("stats takes no operands") }
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        let root = try CacheOption.resolve(arguments)
        var stats = CacheStats(cacheRoot: root)
        stats.store = try await StoreOption.choice(arguments, cacheRoot: root)
        stats.note = { Output.err("photomirror: \($0)\n") }
        let report: StatsReport
        do {
            report = try await stats.run()
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        if arguments.has(.json) {
            var fields = JSONDocument.object(report, nulls: ["shared", "oldest_access", "newest_access", "last_sync", "max_size"])
            fields["cache"] = root
            if var last = fields["last_sync"] as? [String: Any], last["hit_ratio"] == nil {
                last["hit_ratio"] = NSNull()
                fields["last_sync"] = last
            }
            Output.out(JSONDocument.encode(JSONEnvelope(command: "stats", started: started), fields))
        } else {
            Output.out(Self.text(report, root: root))
        }
        return .ok
    }

    static func text(_ report: StatsReport, root: String) -> String {
        let statuses = report.itemsByStatus.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text = "cache        \(root)\n"
        text += "feeds        \(report.feeds)\n"
        text += "items        \(report.items)\(statuses.isEmpty ? "" : " (\(statuses))")\n"
        text += "originals    \(report.originals.count), \(Output.bytes(report.originals.bytes))\n"
        text += "thumbnails   \(report.thumbnails.count), \(Output.bytes(report.thumbnails.bytes))\n"
        let disk = report.disk
        text += "disk use     \(Output.bytes(disk.total)): originals \(Output.bytes(disk.originals)), thumbnails "
            + "\(Output.bytes(disk.thumbnails)), index \(Output.bytes(disk.index)), pages \(Output.bytes(disk.pages)), "
            + "other \(Output.bytes(disk.other))\n"
        if let shared = report.shared {
            text += "shared       this writer owns \(Output.bytes(shared.owned)), other writers hold \(Output.bytes(shared.others))"
                + " (\(shared.liveWriters) live)\n"
        }
        if let limit = report.maxSize { text += "max_size     \(Output.bytes(limit)) (config.json)\n" }
        if let oldest = report.oldestAccess, let newest = report.newestAccess {
            text += "access       oldest \(oldest), newest \(newest)\n"
        }
        if let sync = report.lastSync {
            let ratio = sync.hitRatio.map { String(format: "%.0f%%", $0 * 100) } ?? "n/a"
            text += "last sync    \(sync.at): \(counted(sync.media, "image")), \(sync.downloaded) downloaded, \(sync.reused) "
                + "from the cache, \(sync.failed) failed; hit ratio \(ratio)\n"
        }
        return text
    }
}
