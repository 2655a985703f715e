import PMCache

/// `sync --move-store`: the published tree (originals, thumbnails, manifests, JSON Feeds, pages,
/// cards, the icon) copied from the cache's store to another under the writer's lock, then the
/// new store recorded. The index names files by their paths, which are the same in any store, so
/// it then describes the copies. The old store is left as it was: deleting it is the user's call.
public struct StoreMove: Sendable {
    public let cacheRoot: String
    public let from: StoreChoice
    public let to: StoreChoice
    public var lockWait = 5.0
    /// Copies in flight at once.
    static let width = 8

    public init(cacheRoot: String, from: StoreChoice, to: StoreChoice) {
        self.cacheRoot = cacheRoot
        self.from = from
        self.to = to
    }

    /// Returns how many files were copied.
    public func run() async throws(CacheCommandError) -> Int {
        let layout = CacheLayout(root: cacheRoot)
        let lock: CacheLock
        do {
            lock = try CacheLock(path: layout.lockPath, wait: lockWait)
        } catch {
            throw CacheCommandError(description: "\(layout.root): \(error)")
        }
        let source = from.standalone(layout: layout), target = to.standalone(layout: layout)
        defer {
            source.shutdown()
            target.shutdown()
        }
        let copied: Int
        do {
            // The move makes it this cache's store: its bucket is created as a first sync's is.
            try await target.storage.ensureExists(mayCreate: true)
            try await target.storage.prepare()
            let paths = try await source.storage.inventory().files.keys.map(\.description)
                .filter { ServedFiles.contentType(of: $0) != nil }.sorted()
            copied = try await copy(paths, from: source.storage, to: target.storage)
        } catch {
            throw CacheCommandError(description: "cannot move the cache from \(from.description) to \(to.description): \(error)")
        }
        try StoreSetting.record(to.description, cacheRoot: cacheRoot)
        withExtendedLifetime(lock) {}
        return copied
    }

    private func copy(_ paths: [String], from source: any CacheStorage, to target: any CacheStorage) async throws -> Int {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = paths.makeIterator()
            func start() -> Bool {
                guard let path = next.next() else { return false }
                group.addTask { try await Self.copy(path, from: source, to: target) }
                return true
            }
            for _ in 0..<Self.width where !start() { break }
            while try await group.next() != nil { _ = start() }
            return paths.count
        }
    }

    private static func copy(_ path: String, from source: any CacheStorage, to target: any CacheStorage) async throws {
        guard let bytes = try await source.read(path), let type = ServedFiles.contentType(of: path) else {
            throw StorageError("\(source.location): \(path) is listed but cannot be read")
        }
        if ServedFiles.isContentAddressed(path) {
            let original = path.hasPrefix(CacheLayout.originalsFolder + "/")
            let hash = original ? String(path.split(separator: "/").last?.prefix { $0 != "." } ?? "") : nil
            try await target.putContent([ContentFile(path: path, bytes: bytes, contentType: type, sha256: hash)])
        } else {
            try await target.publish(path, .whenChanged) { append in try append(bytes) }
        }
    }
}
