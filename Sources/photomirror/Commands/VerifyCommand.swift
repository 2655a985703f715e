import Foundation
import PhotoMirror

/// `photomirror verify [--repair]`: print what is wrong; exit 1 on damage (unless repaired).
struct VerifyCommand {
    let arguments: Arguments

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.verify.flags)
        guard arguments.operands.isEmpty else { throw UsageError("verify takes no operands") }
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        let root = try CacheOption.resolve(arguments)
        if arguments.has(.repair) { return try await repair(root, started: started) }
        var verifier = Verifier(cacheRoot: root)
        verifier.deep = arguments.has(.deep)
        verifier.store = try await StoreOption.choice(arguments, cacheRoot: root)
        verifier.note = { Output.err("photomirror: \($0)\n") }
        let report: VerifyReport
        do {
            report = try await verifier.run()
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        if arguments.has(.json) { Output.out(VerifyDocument.json(report, cache: root, started: started)) }
        print(report, elapsed: Date().timeIntervalSince(started))
        return report.isHealthy ? .ok : .itemsFailed
    }

    private func repair(_ root: String, started: Date) async throws(UsageError) -> ExitCode {
        var repairer = Repairer(cacheRoot: root)
        repairer.lockWait = arguments.seconds(.repairWait) ?? repairer.lockWait
        repairer.deep = arguments.has(.deep)
        repairer.garbageGrace = arguments.duration(.garbageGrace) ?? repairer.garbageGrace
        repairer.store = try await StoreOption.choice(arguments, cacheRoot: root)
        let result: Repairer.Result
        do {
            result = try await repairer.run()
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        if arguments.has(.json) { Output.out(VerifyDocument.json(result, cache: root, started: started)) }
        print(result.found, elapsed: nil)
        for failure in result.failures { Output.err("could not delete \(failure)\n") }
        if let rebuilt = result.rebuilt { printRebuild(rebuilt) }
        if result.feedsAdopted > 0 {
            Output.err("repair: adopted \(counted(result.feedsAdopted, "feed")) whose manifests the index did not hold, with their files\n")
        }
        if result.rebuilt == nil, result.found.isHealthy, result.found.garbage.isEmpty, result.found.stale.isEmpty {
            Output.err("repair: nothing to repair\n")
        } else if result.rebuilt == nil || result.rowsDropped > 0 || result.filesDeleted > 0 {
            Output.err("repair: dropped \(counted(result.rowsDropped, "index row")), deleted \(counted(result.filesDeleted, "file")), "
                + "rewrote \(counted(result.manifestsRewritten, "manifest"))"
                + "\(result.manifestsRewritten > 0 ? ", their JSON Feeds and the gallery" : "")\n")
        }
        for line in result.after.damage { Output.err("still damaged: \(line)\n") }
        Output.err("after repair: \(result.after.isHealthy ? "ok" : "DAMAGED"), \(result.after.garbage.count) garbage, "
            + "in \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n")
        return result.after.isHealthy ? .ok : .itemsFailed
    }

    private func printRebuild(_ rebuilt: Repairer.Rebuild) {
        for line in rebuilt.skipped { Output.err("not indexed: \(line)\n") }
        Output.err("repair: rebuilt the index from \(counted(rebuilt.feeds, "manifest")) (\(counted(rebuilt.items, "item")), "
            + "\(counted(rebuilt.mediaURLs, "media URL"))) and \(counted(rebuilt.originals, "original")) and \(counted(rebuilt.thumbnails, "thumbnail")) "
            + "in \(String(format: "%.1f", rebuilt.seconds)) s; rewrote every feed's manifest, JSON Feed and pages"
            + (rebuilt.keptAs.map { "; the damaged index is kept as \($0) until the next successful repair" } ?? "")
            + "\n")
    }

    private func print(_ report: VerifyReport, elapsed: Double?) {
        for line in report.damage { Output.err("damage: \(line)\n") }
        if !arguments.has(.verifyQuiet) {
            for line in report.garbage { Output.err("garbage: \(line)\n") }
            for line in report.stale { Output.err("stale: \(line)\n") }
        }
        let verdict = report.isHealthy ? "ok" : "DAMAGED"
        Output.err("verify \(verdict): \(counted(report.checkedFiles, "file")), \(counted(report.checkedManifests, "manifest")), "
            + "\(counted(report.checkedJSONFeeds, "JSON Feed")) and \(counted(report.checkedPages, "gallery page")) checked, "
            + "\(report.damage.count) damaged, \(report.garbage.count) garbage, \(report.stale.count) stale"
            + (elapsed.map { " in \(String(format: "%.1f", $0)) s" } ?? "") + "\n")
    }
}
