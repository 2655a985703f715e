import Foundation
import PMCache

/// Where a cache folder says its files are, and remembering a store: the `store` key of the
/// cache's config.json, written atomically with the file's other keys kept. `StoreDecision`
/// decides from these facts.
public enum StoreSetting {
    /// The store a command uses, and what it must do first.
    public struct Resolution: Sendable {
        public var choice: StoreChoice
        /// The store to record in config.json before the command writes anything.
        public var record: String?
        /// With `--move-store`: where the published tree is copied from (`.folder` for the folder).
        public var moveFrom: StoreChoice?
    }

    /// A store that is not where the cache's files are, or none given where one is needed.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case refused(Refusal)
        case unparsable(StoreChoice.ParseError)

        public var description: String {
            switch self {
            case .refused(let refusal): refusal.description
            case .unparsable(let error): "--store: \(error.description)"
            }
        }
    }

    /// `given` is `--store`, `move` is `--move-store`, `records` whether the command syncs.
    public static func resolve(given: String?, move: Bool, records: Bool, cacheRoot: String,
                               environment: [String: String]) async throws(Failure) -> Resolution {
        let layout = CacheLayout(root: cacheRoot)
        // A config.json that cannot be read is the command's error to report (exit 4) before it
        // writes anything; it is never written over.
        guard let recorded = await recorded(layout) else {
            return Resolution(choice: try parse(given, environment), record: nil, moveFrom: nil)
        }
        let decision = StoreDecision.decide(recorded: recorded, given: given, move: move, records: records,
                                            cache: layout.root, config: layout.absolute(CacheConfig.fileName))
        switch decision {
        case .refuse(let message):
            throw .refused(Refusal(description: message))
        case .use(let store, let record):
            return Resolution(choice: try parse(store, environment), record: record ? store : nil, moveFrom: nil)
        case .move(let from, let to):
            return Resolution(choice: try parse(to, environment), record: to, moveFrom: try parse(from, environment))
        }
    }

    private static func parse(_ store: String?, _ environment: [String: String]) throws(Failure) -> StoreChoice {
        guard let store else { return .folder }
        do {
            return try StoreChoice(parsing: store, environment: environment)
        } catch {
            throw .unparsable(error)
        }
    }

    /// Nil when config.json cannot be read. Cheap for a cache folder (a few `stat`s); the index is
    /// opened, read-only, only when no store is recorded and the folder holds no published file.
    static func recorded(_ layout: CacheLayout) async -> StoreDecision.Recorded? {
        guard let config = try? CacheConfig.load(layout: layout) else { return nil }
        if let store = config.store { return .store(store) }
        let files = FileManager.default
        func holds(_ name: String) -> Bool { files.fileExists(atPath: layout.absolute(name)) }
        if CacheLayout.contentFolders.contains(where: holds) { return .folder }
        guard !holds(CacheLayout.feedsFolder), !holds(CacheLayout.galleryFile), holds(CacheLayout.indexFile),
              let index = try? PhotoIndex(readingOnly: layout.indexPath), let totals = try? await index.totals() else {
            return .nothing
        }
        let indexed = totals.originals + totals.thumbnails
        return indexed > 0 ? .elsewhere(indexed: indexed) : .nothing
    }

    /// Sets config.json's `store`, keeping its other keys (`CacheConfigFile`).
    public static func record(_ store: String, cacheRoot: String) throws(CacheCommandError) {
        try CacheConfigFile.record(["store": store], what: "the store \(store)", cacheRoot: cacheRoot)
    }
}

extension StoreSetting {
    /// Throws when config.json records a store: the folder then holds only the index, and serving
    /// it would answer 404 to every page. The bucket is the static site.
    public static func requireFolderStore(cacheRoot: String) throws(CacheCommandError) {
        let layout = CacheLayout(root: cacheRoot)
        guard let store = (try? CacheConfig.load(layout: layout))?.store else { return }
        throw CacheCommandError(description: "\(layout.root): the cache's files are in \(StoreDecision.canonical(store)) "
            + "(\(layout.absolute(CacheConfig.fileName))), not in this folder, which holds only the index; serve the "
            + "bucket through the store's website endpoint or a CDN")
    }
}
