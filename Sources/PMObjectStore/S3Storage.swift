import Foundation
import PMCache
import PMSupport
import Synchronization

/// A cache's files in an S3 bucket under a prefix, laid out as a cache folder is (cache-layout.md),
/// so the bucket is the static site. Content-addressed objects are never uploaded twice, whoever
/// put them: a writer lists the content folders once when it starts (`prepare`), then puts only
/// what is not there — no HEAD per object, which on an object store costs most of a PUT, and
/// `If-None-Match: *` on PUT is refused by some (OpenStack Swift). Without a listing (prune,
/// verify) it asks with a HEAD. Two writers putting the same new object at the same moment both
/// write the same bytes under its hash's name: harmless.
/// Originals and thumbnails are cached for ever by readers, pages and manifests for a minute.
public struct S3Storage: CacheStorage {
    public let client: S3Client
    public let bucket: String
    /// No leading or trailing slash; empty for the bucket's root.
    public let prefix: String
    /// Content keys known to be in the bucket: listed by `prepare`, added to by each put.
    private let known = KnownKeys()

    final class KnownKeys: Sendable {
        let keys = Mutex<Set<String>?>(nil)
    }

    static let immutable = "public, max-age=31536000, immutable"
    static let shortLived = "public, max-age=60"

    public init(client: S3Client, bucket: String, prefix: String) {
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.split(separator: "/").joined(separator: "/")
    }

    public var location: String { prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)" }

    /// Other writers may share the bucket and prefix, each with its own index.
    public var sharedByWriters: Bool { true }

    /// Only a cache's first sync creates the bucket: a later one finding it gone stops (exit 4)
    /// rather than refill a new, empty bucket while its index names objects it never had.
    public func ensureExists(mayCreate: Bool) async throws(StorageError) {
        do {
            if mayCreate {
                try await client.createBucket(bucket)
            } else {
                _ = try await client.listObjectsPage(bucket: bucket, prefix: key(CacheLayout.galleryFile), maxKeys: 1)
            }
        } catch {
            throw Self.storageError(error, bucket: bucket)
        }
    }

    public func prepare() async throws(StorageError) {
        var keys = Set<String>()
        do {
            for folder in CacheLayout.contentFolders {
                for object in try await client.listObjects(bucket: bucket, prefix: key(folder) + "/") { keys.insert(object.key) }
            }
        } catch {
            throw Self.storageError(error, bucket: bucket)
        }
        known.keys.withLock { $0 = keys }
    }

    public func unlisted(_ paths: [String]) -> [String] {
        known.keys.withLock { keys in
            guard let keys else { return [] }
            return paths.filter { !keys.contains(key($0)) }
        }
    }

    /// A missing bucket said in words, with what to do about it.
    static func storageError(_ error: S3Error, bucket: String) -> StorageError {
        guard error.code == "NoSuchBucket" else { return StorageError(error) }
        return StorageError("the bucket \"\(bucket)\" does not exist (deleted under the cache?): only a cache's first sync "
            + "creates its bucket; recreate it, or start a new cache for a new bucket", endsTheSync: true)
    }

    func key(_ path: String) -> String { prefix.isEmpty ? path : "\(prefix)/\(path)" }

    /// The cache path of a key under the prefix.
    func path(_ key: String) -> String? {
        guard !prefix.isEmpty else { return key }
        guard key.hasPrefix(prefix + "/") else { return nil }
        return String(key.dropFirst(prefix.count + 1))
    }

    public func putContent(_ files: [ContentFile]) async throws(StorageError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for file in files {
                    group.addTask { try await put(file) }
                }
                try await group.waitForAll()
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError("\(location): \(error)")
        }
    }

    private func put(_ file: ContentFile) async throws(StorageError) {
        let key = key(file.path)
        do {
            switch known.keys.withLock({ $0?.contains(key) }) {
            case true?: return
            case false?: break
            case nil: if try await client.headObject(bucket: bucket, key: key) != nil { return }
            }
            try await client.putObject(bucket: bucket, key: key, bytes: file.bytes, contentType: file.contentType,
                                       cacheControl: Self.immutable, metadata: file.sha256.map { ["sha256": $0] } ?? [:],
                                       sha256: file.sha256)
            known.keys.withLock { _ = $0?.insert(key) }
        } catch {
            throw StorageError(error)
        }
    }

    public func read(_ path: String) async throws(StorageError) -> [UInt8]? {
        do {
            return try await client.getObject(bucket: bucket, key: key(path))?.bytes
        } catch {
            throw StorageError(error)
        }
    }

    public func exists(_ path: String) async throws(StorageError) -> Bool {
        do {
            return try await client.headObject(bucket: bucket, key: key(path)) != nil
        } catch {
            throw StorageError(error)
        }
    }

    /// The whole document is built in memory (an object is put in one request); with
    /// `.whenChanged` its MD5 is compared with the stored object's ETag first.
    public func publish(_ path: String, _ mode: PublishMode, write: (_ append: ([UInt8]) throws -> Void) async throws -> Void)
        async throws -> Bool
    {
        var bytes: [UInt8] = []
        try await write { bytes += $0 }
        let key = key(path)
        do {
            if mode == .whenChanged, let stored = try await client.headObject(bucket: bucket, key: key),
               stored.etag.lowercased() == Digest.md5Hex(bytes) {
                return false
            }
            try await client.putObject(bucket: bucket, key: key, bytes: bytes, contentType: Self.contentType(path),
                                       cacheControl: Self.shortLived)
            return true
        } catch {
            throw StorageError(error)
        }
    }

    public func list(folder: String) async throws(StorageError) -> [String] {
        try await paths(under: folder).filter { !$0.dropFirst(folder.count + 1).contains("/") }
    }

    public func files(named name: String, below folder: String) async throws(StorageError) -> [String] {
        try await paths(under: folder).filter { path in
            guard path.hasSuffix("/" + name) else { return false }
            let middle = path.dropFirst(folder.count + 1).dropLast(name.count + 1)
            return !middle.isEmpty && !middle.contains("/")
        }
    }

    private func paths(under folder: String) async throws(StorageError) -> [String] {
        do {
            return try await client.listObjects(bucket: bucket, prefix: key(folder) + "/").compactMap { path($0.key) }.sorted()
        } catch {
            throw StorageError(error)
        }
    }

    public func remove(_ paths: [CachePath]) async -> StorageRemoval {
        var removal = StorageRemoval()
        let keys = paths.map { key($0.description) }
        do {
            let failures = try await client.deleteObjects(bucket: bucket, keys: keys)
            let failed = Set(failures.map(\.key))
            removal.removed = paths.filter { !failed.contains(key($0.description)) }
            let gone = Set(removal.removed.map { key($0.description) })
            known.keys.withLock { keys in keys?.subtract(gone) }
            removal.failures = failures.map(\.description)
        } catch {
            removal.failures = ["\(location): \(error)"]
        }
        return removal
    }

    /// Every object under the prefix at its size: what the bucket bills and a prune bounds.
    public func inventory() async throws(StorageError) -> DiskScan {
        do {
            let objects = try await client.listObjects(bucket: bucket, prefix: prefix.isEmpty ? "" : prefix + "/")
            var modified: [String: Double] = [:]
            let listed = objects.compactMap { object -> (path: String, bytes: Int)? in
                guard let path = path(object.key) else { return nil }
                if let time = object.lastModified { modified[path] = time.timeIntervalSince1970 }
                return (path, object.size)
            }
            return DiskScan(objects: listed, modified: modified)
        } catch {
            throw Self.storageError(error, bucket: bucket)
        }
    }

    public func inventory(_ scan: DiskScan, afterRemoving removed: [CachePath]) async throws(StorageError) -> DiskScan {
        scan.removing(removed)
    }

    /// The published documents' types: S3 serves back the type it was given and guesses none.
    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}

extension StorageError {
    init(_ error: S3Error) {
        self.init(error.description)
    }
}
