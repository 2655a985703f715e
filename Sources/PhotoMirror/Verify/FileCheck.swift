import Foundation
import PMCache
import PMSupport

/// Reads and hashes indexed files on a pool of threads (hashing 100 000 files is blocking work
/// that must stay off the cooperative pool), a page of rows at a time, so that memory does not
/// follow the cache's size. Returns the files that fail, with the reason.
struct FileCheck: Sendable {
    let layout: CacheLayout

    /// Files per job: small enough that the lanes finish together, large enough that the
    /// hops to and from the pool cost nothing next to the reading.
    static let filesPerJob = 512

    func run(index: PhotoIndex) async throws -> FileCheckResult {
        let lanes = ProcessInfo.processInfo.activeProcessorCount
        let pool = BlockingPool(threads: lanes, name: "photomirror.verify")
        defer { pool.shutdown() }
        var result = FileCheckResult()
        try await index.forEachFilePage { files in result.add(await check(files, on: pool)) }
        result.failures.sort { $0.file.path.description < $1.file.path.description }
        return result
    }

    private func check(_ files: [IndexedFile], on pool: BlockingPool) async -> FileCheckResult {
        await withTaskGroup(of: FileCheckResult.self) { group in
            for start in stride(from: 0, to: files.count, by: Self.filesPerJob) {
                let share = files[start..<min(start + Self.filesPerJob, files.count)]
                group.addTask { [layout] in
                    (try? await pool.run {
                        var buffer: [UInt8] = []
                        var result = FileCheckResult()
                        for file in share {
                            result.files += 1
                            switch Self.problem(file, layout: layout, buffer: &buffer) {
                            case .missing: result.failures.append((file, "indexed but missing"))
                            case .wrong(let problem):
                                result.failures.append((file, problem))
                                if file.isContentFile { result.contentFilesFound += 1 }
                            case nil:
                                if file.isContentFile { result.contentFilesFound += 1 }
                            }
                        }
                        return result
                    }) ?? FileCheckResult()
                }
            }
            var result = FileCheckResult()
            for await part in group { result.add(part) }
            return result
        }
    }

    enum Problem: Equatable {
        case missing
        case wrong(String)
    }

    /// What is wrong with one file, read into `buffer` (kept from file to file).
    static func problem(_ file: IndexedFile, layout: CacheLayout, buffer: inout [UInt8]) -> Problem? {
        guard let count = FileContents.read(layout.absolute(file.path.description), into: &buffer) else { return .missing }
        if count != file.bytes { return .wrong("\(count) bytes, index says \(file.bytes)") }
        let sha256 = buffer.withUnsafeBytes { Digest.sha256Hex(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        if ImageHash(sha256) != file.sha256 { return .wrong("content does not match its SHA-256 \(file.sha256)") }
        return nil
    }
}
