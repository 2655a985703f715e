import Foundation
import PMCache
import PMSupport

/// One file the index names, with what its row promises.
struct IndexedFile: Sendable {
    enum Role: Sendable {
        case original(sha256: String)
        case thumbnail(originalSHA256: String, size: String)
    }

    var role: Role
    var path: String
    var bytes: Int
    var sha256: String

    static func all(in rows: (originals: [OriginalRecord], thumbnails: [ThumbnailRecord])) -> [IndexedFile] {
        rows.originals.map { IndexedFile(role: .original(sha256: $0.sha256), path: $0.path, bytes: $0.bytes, sha256: $0.sha256) }
            + rows.thumbnails.map {
                IndexedFile(role: .thumbnail(originalSHA256: $0.originalSHA256, size: $0.size), path: $0.path,
                            bytes: $0.bytes, sha256: $0.sha256)
            }
    }
}

/// Reads and hashes indexed files on a pool of threads (hashing 100 000 files is blocking work
/// that must stay off the cooperative pool). Returns the files that fail, with the reason.
struct FileCheck: Sendable {
    let layout: CacheLayout

    /// Files per job: small enough that the lanes finish together, large enough that the
    /// hops to and from the pool cost nothing next to the reading.
    static let filesPerJob = 512

    func failures(_ files: [IndexedFile]) async -> [(file: IndexedFile, problem: String)] {
        guard !files.isEmpty else { return [] }
        let lanes = min(ProcessInfo.processInfo.activeProcessorCount, files.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.verify")
        defer { pool.shutdown() }
        return await withTaskGroup(of: [(file: IndexedFile, problem: String)].self) { group in
            for start in stride(from: 0, to: files.count, by: Self.filesPerJob) {
                let share = files[start..<min(start + Self.filesPerJob, files.count)]
                group.addTask { [layout] in
                    (try? await pool.run {
                        var buffer: [UInt8] = []
                        return share.compactMap { file in Self.problem(file, layout: layout, buffer: &buffer).map { (file, $0) } }
                    }) ?? []
                }
            }
            var failures: [(file: IndexedFile, problem: String)] = []
            for await found in group { failures += found }
            return failures.sorted { $0.file.path < $1.file.path }
        }
    }

    /// What is wrong with one file, read into `buffer` (kept from file to file).
    static func problem(_ file: IndexedFile, layout: CacheLayout, buffer: inout [UInt8]) -> String? {
        guard let count = FileContents.read(layout.absolute(file.path), into: &buffer) else {
            return "indexed but missing"
        }
        if count != file.bytes { return "\(count) bytes, index says \(file.bytes)" }
        let sha256 = buffer.withUnsafeBytes { Digest.sha256Hex(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        if sha256 != file.sha256 { return "content does not match its SHA-256 \(file.sha256)" }
        return nil
    }
}
