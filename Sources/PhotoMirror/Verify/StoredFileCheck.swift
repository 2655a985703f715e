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

    func failures(_ files: [IndexedFile]) async -> [(file: IndexedFile, problem: String)] {
        var failures: [(file: IndexedFile, problem: String)] = []
        var present: [IndexedFile] = []
        for file in files {
            switch scan.files[CachePath(file.path)] {
            case nil: failures.append((file, "indexed but missing from \(storage.location)"))
            case let size? where size != file.bytes: failures.append((file, "\(size) bytes, index says \(file.bytes)"))
            default: present.append(file)
            }
        }
        if deep { failures += await hashed(present) }
        return failures.sorted { $0.file.path < $1.file.path }
    }

    private func hashed(_ files: [IndexedFile]) async -> [(file: IndexedFile, problem: String)] {
        await withTaskGroup(of: (IndexedFile, String?).self) { group in
            var next = files.makeIterator()
            func start() {
                guard let file = next.next() else { return }
                group.addTask { [storage] in
                    do {
                        guard let bytes = try await storage.read(file.path) else { return (file, "indexed but missing") }
                        return (file, Digest.sha256Hex(bytes) == file.sha256 ? nil : "content does not match its SHA-256 \(file.sha256)")
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
