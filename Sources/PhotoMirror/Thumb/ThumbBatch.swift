import Foundation
import PMImaging
import PMSupport
import Synchronization

/// `photomirror thumb`: local files to thumbnails (PNG, or the size's format), on a pool of one thread per core.
/// Each input is read, decoded, scaled, encoded and written by the same thread, so nothing
/// blocking touches the cooperative pool and the image bytes are never copied between threads.
public struct ThumbBatch: Sendable {
    public struct Failure: Sendable {
        public let input: String
        public let reason: String
    }

    /// An input whose file was damaged, thumbnailed from what decodes: what the decoder said.
    public struct Warning: Sendable {
        public let input: String
        public let text: String
    }

    public struct Outcome: Sendable {
        public var failures: [Failure] = []
        public var warnings: [Warning] = []
    }

    public let size: ThumbnailSize
    public let outputFolder: String
    public let threads: Int
    public let maxPixels: Int

    public init(size: ThumbnailSize, outputFolder: String, threads: Int, maxPixels: Int) {
        self.size = size
        self.outputFolder = outputFolder
        self.threads = max(1, threads)
        self.maxPixels = maxPixels
    }

    /// Output path of `input`: the output folder plus the input's name without its extension,
    /// with the thumbnail format's (`png` by default).
    public static func outputPath(for input: String, in folder: String, format: ThumbnailFormat = .png) -> String {
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(name + "." + format.fileExtension)
    }

    /// Makes every thumbnail; returns the inputs that failed, with their reasons, and those made
    /// from damaged files, with the decoder's warning.
    ///
    /// One job per pool thread, each taking the next input from a shared counter until none is
    /// left: no task, continuation or thread hand-off per image (at ~1 ms an image those
    /// wake-ups were a measurable share of the work).
    public func run(_ inputs: [String]) async throws(FileError) -> Outcome {
        try AtomicFile.makeDirectories(outputFolder)
        let pool = BlockingPool(threads: threads, name: "photomirror.thumb")
        defer { pool.shutdown() }
        let next = Cursor()
        return await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<min(threads, inputs.count) {
                group.addTask { [self] in
                    (try? await pool.run { () -> Outcome in
                        var outcome = Outcome()
                        while let position = next.take(below: inputs.count) {
                            do {
                                if let warning = try thumbnail(inputs[position]) {
                                    outcome.warnings.append(Warning(input: inputs[position], text: warning))
                                }
                            } catch {
                                outcome.failures.append(Failure(input: inputs[position], reason: "\(error)"))
                            }
                        }
                        return outcome
                    }) ?? Outcome()
                }
            }
            var all = Outcome()
            for await some in group {
                all.failures += some.failures
                all.warnings += some.warnings
            }
            all.failures.sort { $0.input < $1.input }
            all.warnings.sort { $0.input < $1.input }
            return all
        }
    }

    /// The index of the next input to process, shared by the pool's threads.
    private final class Cursor: Sendable {
        private let value = Atomic<Int>(0)

        func take(below count: Int) -> Int? {
            let taken = value.add(1, ordering: .relaxed).oldValue
            return taken < count ? taken : nil
        }
    }

    /// Writes the input's thumbnail; returns the decoder's warning for a damaged file.
    private func thumbnail(_ input: String) throws -> String? {
        guard let data = FileManager.default.contents(atPath: input) else {
            throw FileError(path: input, operation: "read")
        }
        let made = try data.withUnsafeBytes { raw in
            try Thumbnailer.thumbnails(of: raw, sizes: [size], limits: DecodeLimits(maxPixels: maxPixels))
        }
        try AtomicFile.write(made.files[0], to: Self.outputPath(for: input, in: outputFolder, format: size.format),
                             sync: false)
        return made.warning
    }
}
