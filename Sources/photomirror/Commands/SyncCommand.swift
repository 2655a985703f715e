import Foundation
import PMCache
import PhotoMirror

/// `photomirror sync`: parse options, run the engine, print the outcome.
struct SyncCommand {
    let arguments: Arguments
    let options: SyncOptions
    /// The settings the flags give, over the config files.
    let flags: CacheConfig
    /// The operands, then the URLs of every `--feeds` list, each once.
    let feedURLs: [String]

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.sync.flags)
        feedURLs = try FeedsOption.feedURLs(operands: arguments.operands, files: arguments.all(.feeds))
        options = try SyncOptions(arguments)
        flags = try CacheConfig(flags: arguments)
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        let root = try CacheOption.resolve(arguments)
        let quiet = arguments.has(.quiet)
        var options = options
        let settings: EffectiveSettings
        switch try SettingsOption.resolve(flags, cacheRoot: root) {
        case .success(let resolved): settings = resolved
        case .failure(let error): return fail(error, code: .cacheFailed, root: root, started: started)
        }
        options.apply(settings)
        try FormatOption.check(settings)
        if arguments.has(.syncDryRun) {
            return try await SyncDryRun(arguments: arguments, options: options, feedURLs: feedURLs)
                .run(root: root, store: settings.store.value, started: started)
        }
        let line = (!quiet && Output.stderrIsTerminal) ? ProgressLine() : nil
        let ticker = (!quiet && !Output.stderrIsTerminal) ? StatsTicker(every: arguments.duration(.statsEvery) ?? 30) : nil
        defer { ticker?.stop() }
        var progress: (@Sendable (SyncProgress) -> Void)?
        if let line { progress = { line.update($0) } }
        if let ticker { progress = { ticker.update($0) } }
        var engine = SyncEngine(cacheRoot: root, options: options, progress: progress)
        if arguments.has(.verbose), !quiet {
            let clears = line != nil
            // On a terminal the live line is cleared first; it is redrawn at the next update.
            engine.requests = { Output.err((clears ? "\r\u{1B}[K" : "") + RequestLog.text($0)) }
        }
        let store = try await StoreOption.resolve(arguments, cacheRoot: root, records: true, move: arguments.has(.moveStore))
        if let failed = await StoreOption.settle(store, cacheRoot: root, quiet: quiet) { return failed }
        engine.stages = .standard(store: store.choice)
        let pruned = PruneCapture()
        engine.pruned = { pruned.keep($0) }
        let work = Task { () -> Result<SyncReport, CacheCommandError> in
            do throws(CacheCommandError) { return .success(try await engine.run(feedURLs: feedURLs)) } catch { return .failure(error) }
        }
        let signals = SignalWatcher { work.cancel() }
        let report: SyncReport
        switch await work.value {
        case .success(let value):
            report = value.redacted
        case .failure(let error):
            line?.finish()
            var code = ExitCode.cacheFailed
            if error.kind == .interrupted, let signal = signals.receivedSignal { code = .signalled(signal) }
            return fail(error, code: code, root: root, started: started)
        }
        line?.finish()
        ticker?.stop()
        // The sync ran with them: the next plain one keeps them (`CacheConfigFile.sticky`).
        do throws(CacheCommandError) {
            try CacheConfigFile.record(CacheConfigFile.sticky(flags), what: "the sync's settings", cacheRoot: root)
        } catch {
            Output.err("photomirror: \(error)\n")
        }
        if arguments.has(.json) { Output.out(JSONDocument.encode(SyncDocument(report, prune: pruned.report, cache: root, started: started))) }
        let verbosity: SyncSummary.Verbosity = quiet ? .quiet : arguments.has(.verbose) ? .verbose : .normal
        Output.err(SyncSummary.text(report, verbosity: verbosity, cacheRoot: root, colour: Output.stderrColour,
                                    elapsed: Date().timeIntervalSince(started)))
        for feed in report.feeds { if let error = feed.error { Output.err("feed failed: \(error)\n") } }
        if let prune = pruned.report, !quiet || !prune.reachedTarget { Output.err(PruneSummary.text(prune)) }
        if report.feedFailed { return .feedFailed }
        return report.itemsFailed ? .itemsFailed : .ok
    }

    /// A sync that stopped before it had a report: why, on stderr and in the JSON document.
    private func fail(_ error: CacheCommandError, code: ExitCode, root: String, started: Date) -> ExitCode {
        Output.err("photomirror: \(error)\n")
        if arguments.has(.json) {
            Output.out(JSONDocument.encode(SyncDocument(failure: error, exitCode: code, cache: root, started: started)))
        }
        return code
    }
}
