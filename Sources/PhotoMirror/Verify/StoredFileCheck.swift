import PMCache
import PMSupport

/// `FileCheck` for an object store: each indexed file's object must be listed with the size its
/// row gives (one listing, no request per file); with `deep`, it is also fetched and hashed.
struct StoredFileCheck: Sendable {
    let storage: any CacheStorage
    let scan: DiskScan
    let deep: Bool

    /// Objects fetched at once with `deep`.
    static let inFlight = 16

    func run(index: PhotoIndex) async throws -> FileCheckResult {
        var result = FileCheckResult()
        try await index.forEachFilePage { files in result.add(await check(files)) }
        result.failures.sort { $0.file.path.description < $1.file.path.description }
        return result
    }

    private func check(_ files: [IndexedFile]) async -> FileCheckResult {
        var result = FileCheckResult()
        var present: [IndexedFile] = []
        for file in files {
            result.files += 1
            guard let size = scan.files[file.path] else {
                result.failures.append((file, "indexed but missing from \(storage.location)"))
                continue
            }
            if file.isContentFile { result.contentFilesFound += 1 }
            if size != file.bytes {
                result.failures.append((file, "\(size) bytes, index says \(file.bytes)"))
            } else {
                present.append(file)
            }
        }
        if deep { result.failures += await hashed(present) }
        return result
    }

    private func hashed(_ files: [IndexedFile]) async -> [(file: IndexedFile, problem: String)] {
        await withTaskGroup(of: (IndexedFile, String?).self) { group in
            var next = files.makeIterator()
            func start() {
                guard let file = next.next() else { return }
                group.addTask { [storage] in
                    do {
                        guard let bytes = try await storage.read(file.path.description) else { return (file, "indexed but missing") }
                        return (file, ImageHash(Digest.sha256Hex(bytes)) == file.sha256
                            ? nil : "content does not match its SHA-256 \(file.sha256)")
                    } catch {
                        return (file, "cannot be read: \(error)")
                    }
                }
            }
            for _ in 0..<Self.inFlight { start() }
            var failures: [(file: IndexedFile, problem: String)] = []
            for await (file, problem) in group {
                if let problem { failures.append((file, problem)) }
                start()
            }
            return failures
        }
    }
}
