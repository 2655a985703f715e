import Foundation
import PMImaging
import PMSupport
import Synchronization

/// `photomirror thumb`: local files to PNG thumbnails, on a pool of one thread per core.
/// Each input is read, decoded, scaled, encoded and written by the same thread, so nothing
/// blocking touches the cooperative pool and the image bytes are never copied between threads.
public struct ThumbBatch: Sendable {
    public struct Failure: Sendable {
        public let input: String
        public let reason: String
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

    /// Output path of `input`: the output folder plus the input's name without its extension.
    public static func outputPath(for input: String, in folder: String) -> String {
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(name + ".png")
    }

    /// Makes every thumbnail; returns the inputs that failed, with their reasons.
    ///
    /// One job per pool thread, each taking the next input from a shared counter until none is
    /// left: no task, continuation or thread hand-off per image (at ~1 ms an image those
    /// wake-ups were a measurable share of the work).
    public func run(_ inputs: [String]) async throws(FileError) -> [Failure] {
        try AtomicFile.makeDirectories(outputFolder)
        let pool = BlockingPool(threads: threads, name: "photomirror.thumb")
        defer { pool.shutdown() }
        let next = Cursor()
        return await withTaskGroup(of: [Failure].self) { group in
            for _ in 0..<min(threads, inputs.count) {
                group.addTask { [self] in
                    (try? await pool.run { () -> [Failure] in
                        var failures: [Failure] = []
                        while let position = next.take(below: inputs.count) {
                            do {
                                try thumbnail(inputs[position])
                            } catch {
                                failures.append(Failure(input: inputs[position], reason: "\(error)"))
                            }
                        }
                        return failures
                    }) ?? []
                }
            }
            var failures: [Failure] = []
            for await some in group { failures += some }
            return failures.sorted { $0.input < $1.input }
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

    private func thumbnail(_ input: String) throws {
        guard let data = FileManager.default.contents(atPath: input) else {
            throw FileError(path: input, operation: "read")
        }
        let png = try data.withUnsafeBytes { raw in
            try Thumbnailer.pngThumbnails(of: raw, sizes: [size], limits: DecodeLimits(maxPixels: maxPixels))[0]
        }
        try AtomicFile.write(png, to: Self.outputPath(for: input, in: outputFolder), sync: false)
    }
}
