import Foundation
import PMImaging
import PMSupport
import PhotoMirror

/// `photomirror thumb`: parse options, run the batch, report warnings and failures one per line.
struct ThumbCommand {
    let arguments: Arguments
    let size: ThumbnailSize
    let output: String

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.thumb.flags)
        guard let output = arguments.last(.output) else { throw UsageError("thumb needs an output folder: -o DIR") }
        guard !arguments.operands.isEmpty else { throw UsageError("thumb needs at least one input file") }
        let box = arguments.thumbnailSizes(.thumbSize).last ?? ThumbnailSize(width: 40, height: 40)
        let format = arguments.last(.format).flatMap(ThumbnailFormat.init(named:)) ?? .png
        let fit = arguments.last(.fit).flatMap(ThumbnailFit.init(rawValue:)) ?? .cover
        size = box.made(fit: fit, format: format, quality: arguments.int(.quality))
        if let why = ThumbnailEncoderCheck.unavailability(of: format) {
            throw UsageError("--format \(format.rawValue): this machine cannot write it: \(why)")
        }
        try ThumbCollisions.check(arguments.operands, output: output, format: format)
        self.output = output
    }

    func run() async throws(UsageError) -> ExitCode {
        let threads = arguments.int(.thumbJobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let maxPixels = arguments.int(.maxPixels) ?? ImagingOptions().maxPixels
        let batch = ThumbBatch(size: size, outputFolder: output, threads: threads, maxPixels: maxPixels)
        do {
            let outcome = try await batch.run(arguments.operands)
            // A damaged file still got its thumbnail: a warning, not a failure.
            for warning in outcome.warnings { Output.err("warning: \(warning.input): \(warning.text)\n") }
            for failure in outcome.failures { Output.err("\(failure.input): \(failure.reason)\n") }
            return outcome.failures.isEmpty ? .ok : .itemsFailed
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
    }
}
