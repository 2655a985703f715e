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

    func failures(_ files: [IndexedFile]) async -> [(file: IndexedFile, problem: String)] {
        guard !files.isEmpty else { return [] }
        let lanes = min(ProcessInfo.processInfo.activeProcessorCount, files.count)
        let pool = BlockingPool(threads: lanes, name: "photomirror.verify")
        defer { pool.shutdown() }
        return await withTaskGroup(of: [(file: IndexedFile, problem: String)].self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: files.count, by: lanes).map { files[$0] }
                group.addTask { [layout] in
                    (try? await pool.run { share.compactMap { file in Self.problem(file, layout: layout).map { (file, $0) } } }) ?? []
                }
            }
            var failures: [(file: IndexedFile, problem: String)] = []
            for await found in group { failures += found }
            return failures.sorted { $0.file.path < $1.file.path }
        }
    }

    static func problem(_ file: IndexedFile, layout: CacheLayout) -> String? {
        guard let data = FileManager.default.contents(atPath: layout.absolute(file.path)) else {
            return "indexed but missing"
        }
        if data.count != file.bytes { return "\(data.count) bytes, index says \(file.bytes)" }
        if Digest.sha256Hex(data) != file.sha256 { return "content does not match its SHA-256 \(file.sha256)" }
        return nil
    }
}
