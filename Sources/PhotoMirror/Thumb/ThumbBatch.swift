import Foundation
import PMImaging
import PMSupport

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
    public func run(_ inputs: [String]) async throws(FileError) -> [Failure] {
        try AtomicFile.makeDirectories(outputFolder)
        let pool = BlockingPool(threads: threads, name: "photomirror.thumb")
        defer { pool.shutdown() }
        return await withTaskGroup(of: Failure?.self) { group in
            var pending = inputs.makeIterator()
            func submit(_ input: String) {
                group.addTask { [self] in
                    do {
                        try await pool.run { try self.thumbnail(input) }
                        return nil
                    } catch {
                        return Failure(input: input, reason: "\(error)")
                    }
                }
            }
            for _ in 0..<(threads * 2) {
                guard let input = pending.next() else { break }
                submit(input)
            }
            var failures: [Failure] = []
            while let result = await group.next() {
                if let result { failures.append(result) }
                if let input = pending.next() { submit(input) }
            }
            return failures.sorted { $0.input < $1.input }
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
