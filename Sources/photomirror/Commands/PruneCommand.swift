import Foundation
import PMCache
import PhotoMirror

/// `photomirror prune`: parse the limits, prune, print what happened.
struct PruneCommand {
    let arguments: Arguments
    let pruner: Pruner

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.prune.flags)
        guard arguments.operands.isEmpty else { throw UsageError("prune takes no operands") }
        var pruner = Pruner(cacheRoot: try CacheOption.resolve(arguments))
        pruner.maxSize = arguments.byteSize(.pruneMax)
        pruner.maxAge = arguments.duration(.maxAge)
        pruner.garbageGrace = arguments.duration(.garbageGrace) ?? pruner.garbageGrace
        // A cache config that fails to load is reported by the prune itself, naming the file.
        let resolved = try SettingsOption.resolve(try CacheConfig(flags: arguments), cacheRoot: pruner.cacheRoot)
        if case .success(let settings) = resolved {
            pruner.maxSize = settings.maxSize.value
            pruner.maxAge = settings.maxAge.value
        }
        if pruner.maxSize == nil, pruner.maxAge == nil, case .success = resolved {
            throw UsageError("prune needs --max SIZE (or --max-age DURATION, or max_size in the cache's or your config.json)")
        }
        pruner.dryRun = arguments.has(.dryRun)
        pruner.lockWait = arguments.seconds(.wait) ?? pruner.lockWait
        pruner.note = { Output.err("photomirror: \($0)\n") }
        self.pruner = pruner
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        var pruner = pruner
        pruner.store = try await StoreOption.choice(arguments, cacheRoot: pruner.cacheRoot)
        let report: PruneReport
        do {
            report = try await pruner.run()
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        if arguments.has(.json) {
            Output.out(JSONDocument.encode(PruneDocument(envelope: JSONEnvelope(command: "prune", started: started),
                                                         cache: pruner.cacheRoot, prune: PruneFields(report: report))))
        }
        if !arguments.has(.pruneQuiet) || !report.reachedTarget { Output.err(PruneSummary.text(report, elapsed: Date().timeIntervalSince(started))) }
        return report.reachedTarget && report.failures.isEmpty ? .ok : .itemsFailed
    }
}
