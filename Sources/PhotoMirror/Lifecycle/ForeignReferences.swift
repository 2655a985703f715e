import Foundation
import PMCache

/// The content files that feeds of *other* writers sharing the storage still show: every
/// manifest in the storage whose feed this index does not hold. Prune and repair never delete
/// those, whatever this index says of them (to it they are orphans, or its own eviction
/// candidates). A cache folder has one writer, so there are none and no manifest is read.
struct ForeignReferences: Sendable {
    private(set) var paths: Set<String> = []
    private(set) var manifests = 0

    static func load(storage: any CacheStorage, ownFeedKeys: Set<String>) async throws -> ForeignReferences {
        var references = ForeignReferences()
        for path in try await storage.files(named: CacheLayout.manifestFile, below: CacheLayout.feedsFolder) {
            let key = path.dropFirst(CacheLayout.feedsFolder.count + 1).prefix { $0 != "/" }
            guard !ownFeedKeys.contains(String(key)), let bytes = try await storage.read(path),
                  let manifest = ManifestLinks.read(bytes) else { continue }
            references.manifests += 1
            references.paths.formUnion(manifest.paths)
        }
        return references
    }

    func contains(_ path: CachePath) -> Bool { !paths.isEmpty && paths.contains(path.description) }
}
