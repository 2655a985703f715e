import Foundation
import PMImaging
import PhotoMirror

/// `photomirror sync`: parse options, run the engine, print the outcome.
struct SyncCommand {
    let arguments: Arguments
    let options: SyncOptions
    /// The operands, then the URLs of every `--feeds` list, each once.
    let feedURLs: [String]

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, spec: .init(
            valued: ["cache", "size", "scales", "jobs", "timeout", "retries", "max-bytes", "max-pixels", "pages", "max-items",
                     "max-images-per-item", "wait", "max", "feeds", "user-agent"],
            flags: ["json", "quiet", "verbose", "revalidate"]))
        feedURLs = try FeedsOption.feedURLs(operands: arguments.operands, files: arguments.all("feeds"))
        var options = SyncOptions()
        let sizes = arguments.all("size")
        if !sizes.isEmpty {
            options.sizes = try sizes.map { (spec) throws(UsageError) in
                guard let size = ThumbnailSize(parsing: spec) else {
                    throw UsageError("--size must look like 40x40 (1–4096 each side), not \"\(spec)\"")
                }
                return size
            }
        }
        if let scales = arguments.last("scales") {
            let factors = scales.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !factors.isEmpty, factors.allSatisfy({ $0 != nil }),
                  let scaled = SyncOptions.sizes(options.sizes, scaledBy: factors.compactMap { $0 })
            else {
                throw UsageError("--scales must be whole numbers like 1,2,3 that keep \(options.sizes[0]) within "
                    + "\(ThumbnailSize.maxSide) pixels, not \"\(scales)\"")
            }
            options.sizes = scaled
        }
        options.jobs = try arguments.int("jobs", range: 1...256) ?? options.jobs
        options.timeout = try arguments.seconds("timeout") ?? options.timeout
        options.stallTimeout = min(options.stallTimeout, options.timeout)
        options.retry.attempts = try arguments.int("retries", range: 0...10).map { $0 + 1 } ?? options.retry.attempts
        options.maxBytes = try arguments.int("max-bytes", range: 1...Int(Int32.max)) ?? options.maxBytes
        options.maxPixels = try arguments.int("max-pixels", range: 1...1_000_000_000) ?? options.maxPixels
        options.maxPages = try arguments.int("pages", range: 1...10_000) ?? options.maxPages
        options.maxItems = try arguments.int("max-items", range: 1...10_000_000) ?? options.maxItems
        options.maxImagesPerItem = try arguments.int("max-images-per-item", range: 1...1000) ?? options.maxImagesPerItem
        if let wait = arguments.last("wait") {
            guard let seconds = Double(wait), seconds >= 0 else { throw UsageError("--wait must be seconds ≥ 0") }
            options.lockWait = seconds
        }
        let environment = ProcessInfo.processInfo.environment
        if let publicKey = environment["MARVEL_PUBLIC_KEY"], let privateKey = environment["MARVEL_PRIVATE_KEY"],
           !publicKey.isEmpty, !privateKey.isEmpty {
            options.marvelKeys = MarvelKeys(publicKey: publicKey, privateKey: privateKey)
        }
        options.maxSize = try arguments.byteSize("max")
        options.revalidateMedia = arguments.has("revalidate")
        options.userAgent = try arguments.userAgent()
        self.options = options
    }

    func run() async throws(UsageError) -> ExitCode {
        let root = try CacheOption.resolve(arguments)
        let quiet = arguments.has("quiet")
        let line = (!quiet && Output.stderrIsTerminal) ? ProgressLine() : nil
        var progress: (@Sendable (SyncProgress) -> Void)?
        if let line { progress = { line.update($0) } }
        var engine = SyncEngine(cacheRoot: root, options: options, progress: progress)
        let pruned = PruneCapture()
        engine.pruned = { pruned.keep($0) }
        let work = Task { () -> Result<SyncReport, SyncError> in
            do throws(SyncError) { return .success(try await engine.run(feedURLs: feedURLs)) } catch { return .failure(error) }
        }
        let signals = SignalWatcher { work.cancel() }
        let report: SyncReport
        switch await work.value {
        case .success(let value):
            report = value
        case .failure(let error):
            line?.finish()
            Output.err("photomirror: \(error)\n")
            if error.kind == .interrupted, let signal = signals.receivedSignal { return .signalled(signal) }
            return .cacheFailed
        }
        line?.finish()
        if arguments.has("json") { Output.out(SyncSummary.json(report)) }
        let verbosity: SyncSummary.Verbosity = quiet ? .quiet : arguments.has("verbose") ? .verbose : .normal
        Output.err(SyncSummary.text(report, verbosity: verbosity, cacheRoot: root, colour: Output.stderrColour))
        for feed in report.feeds { if let error = feed.error { Output.err("feed failed: \(error)\n") } }
        if let prune = pruned.report, !quiet || !prune.reachedTarget { Output.err(PruneSummary.text(prune)) }
        if report.feedFailed { return .feedFailed }
        return report.itemsFailed ? .itemsFailed : .ok
    }
}
