import Foundation
import PMImaging
import PhotoMirror

/// `photomirror thumb`: parse options, run the batch, report failures one per line.
struct ThumbCommand {
    let arguments: Arguments
    let size: ThumbnailSize
    let output: String

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, spec: .init(valued: ["o", "output", "size", "jobs", "max-pixels"], flags: []))
        guard let output = arguments.last("output") ?? arguments.last("o") else {
            throw UsageError("thumb needs an output folder: -o DIR")
        }
        guard !arguments.operands.isEmpty else { throw UsageError("thumb needs at least one input file") }
        let spec = arguments.last("size") ?? "40x40"
        guard let size = ThumbnailSize(parsing: spec) else {
            throw UsageError("--size must look like 40x40 (1–4096 each side), not \"\(spec)\"")
        }
        self.size = size
        self.output = output
    }

    func run() async throws(UsageError) -> ExitCode {
        let threads = try arguments.int("jobs", range: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let maxPixels = try arguments.int("max-pixels", range: 1...1_000_000_000) ?? 100_000_000
        let batch = ThumbBatch(size: size, outputFolder: output, threads: threads, maxPixels: maxPixels)
        do {
            let failures = try await batch.run(arguments.operands)
            for failure in failures { Output.err("\(failure.input): \(failure.reason)\n") }
            return failures.isEmpty ? .ok : .itemsFailed
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
    }
}
