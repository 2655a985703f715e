import Foundation
import PMCache
import PhotoMirror

/// `photomirror watch`: sync each feed whenever it is due, until a signal.
struct WatchCommand {
    let arguments: Arguments
    let options: SyncOptions
    /// The settings the flags give, over the config files.
    let flags: CacheConfig
    let feedURLs: [String]
    let every: Double

    static let defaultEvery = 30 * 60.0

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.watch.flags)
        feedURLs = try FeedsOption.feedURLs(operands: arguments.operands, files: arguments.all(.feeds), command: "watch")
        options = try SyncOptions(arguments)
        flags = try CacheConfig(flags: arguments)
        every = arguments.duration(.every) ?? Self.defaultEvery
    }

    func run() async throws(UsageError) -> ExitCode {
        let root = try CacheOption.resolve(arguments)
        let quiet = arguments.has(.watchQuiet), verbose = arguments.has(.watchVerbose), json = arguments.has(.watchJSON)
        var options = options
        switch try SettingsOption.resolve(flags, cacheRoot: root) {
        case .success(let settings):
            options.apply(settings)
            try FormatOption.check(settings)
        case .failure(let error):
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        var watcher = Watcher(cacheRoot: root, options: options, feedURLs: feedURLs, every: every)
        let store = try await StoreOption.resolve(arguments, cacheRoot: root, records: true)
        if let failed = await StoreOption.settle(store, cacheRoot: root, quiet: quiet) { return failed }
        watcher.stages = .standard(store: store.choice)
        // A watch syncs with them: later syncs keep them (`CacheConfigFile.sticky`).
        do throws(CacheCommandError) {
            try CacheConfigFile.record(CacheConfigFile.sticky(flags), what: "the watch's settings", cacheRoot: root)
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        watcher.pruned = { prune in if !quiet || !prune.reachedTarget { Output.err(PruneSummary.text(prune)) } }
        // As sync: in a log, a progress line every --stats-every, here during each round.
        let ticker = (!quiet && !Output.stderrIsTerminal) ? RoundStatsTicker(every: arguments.duration(.statsEvery) ?? 30) : nil
        defer { ticker?.roundEnds() }
        if let ticker {
            watcher.roundStarts = { ticker.roundStarts() }
            watcher.progress = { ticker.update($0) }
        }
        if !quiet {
            Output.err("watching \(feedURLs.count) feed\(feedURLs.count == 1 ? "" : "s") every \(WatchLine.duration(every)) "
                + "into \(root) (Ctrl-C stops)\n")
        }
        let work = Task { () -> Result<[String], CacheCommandError> in
            do throws(CacheCommandError) {
                return .success(try await watcher.run { round, report in
                    ticker?.roundEnds()
                    if json { Output.out(WatchLine.json(round, report: report?.redacted, cache: root)) }
                    if verbose, let report = report?.redacted {
                        Output.err(SyncSummary.text(report, verbosity: .normal, cacheRoot: root, colour: Output.stderrColour))
                    }
                    if !quiet { Output.err(WatchLine.text(round)) }
                    if let error = round.error { Output.err("round failed: \(error)\n") }
                    for error in round.feedErrors { Output.err("feed failed: \(error)\n") }
                })
            } catch {
                return .failure(error)
            }
        }
        let signals = SignalWatcher { work.cancel() }
        switch await work.value {
        case .success(let gone):
            Output.err("photomirror: every feed is gone (410): \(gone.joined(separator: ", "))\n")
            return .feedFailed
        case .failure(let error):
            Output.err("photomirror: \(error)\n")
            if error.kind == .interrupted, let signal = signals.receivedSignal { return .signalled(signal) }
            return .cacheFailed
        }
    }
}

/// The line (or JSON line) a round prints.
enum WatchLine {
    static func text(_ round: WatchRound) -> String {
        var text = "round \(round.number) at \(UTCTime.string(round.startedAt)): "
        if round.error != nil {
            text += "could not run"
        } else {
            text += "\(round.synced) synced, \(round.unchanged) unchanged, \(round.failed) failed"
            if round.gone > 0 { text += " (\(round.gone) gone)" }
            text += "; \(counted(round.imagesNew, "new image"))"
            if round.imagesFailed > 0 { text += ", \(round.imagesFailed) failed" }
        }
        text += String(format: " in %.1f s", round.seconds)
        if let next = round.nextAt { text += "; next round in \(duration(max(0, next - Date().timeIntervalSince1970)))" }
        return text + "\n"
    }

    /// One line: the envelope (the round's start and end), its counts, and its sync's totals and
    /// failed images (`SyncDocument`'s), empty for a round that could not run.
    static func json(_ round: WatchRound, report: SyncReport?, cache: String) -> String {
        let started = Date(timeIntervalSince1970: round.startedAt)
        let sync = report.map { SyncDocument($0, prune: nil, cache: cache, started: started) }
        let fields: [String: Any] = [
            "cache": cache, "round": round.number, "synced": round.synced, "unchanged": round.unchanged,
            "failed": round.failed, "gone": round.gone, "images_new": round.imagesNew, "images_failed": round.imagesFailed,
            "error": round.error ?? NSNull(), "feed_errors": round.feedErrors,
            "next_at": JSONTime.string(seconds: round.nextAt) ?? NSNull(),
            "totals": JSONDocument.object(sync?.totals ?? SyncDocument.Totals()),
            "failures": sync.map { $0.failures.map { JSONDocument.object($0) } } ?? [],
        ]
        let envelope = JSONEnvelope(command: "watch", started: started, finished: started.addingTimeInterval(round.seconds))
        return JSONDocument.encode(envelope, fields, pretty: false)
    }

    /// 45s, 30m, 2h 5m.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60)m" : "\(whole / 60)m \(whole % 60)s" }
        return whole % 3600 / 60 == 0 ? "\(whole / 3600)h" : "\(whole / 3600)h \(whole % 3600 / 60)m"
    }
}

/// `2026-12-01 10:41:05Z`, as logs want it.
enum UTCTime {
    static func string(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
