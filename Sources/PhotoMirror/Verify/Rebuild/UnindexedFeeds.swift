import Foundation
import PMCache
import PMSupport

/// The manifests of a cache folder whose feed the index does not hold. A folder has one writer,
/// so such a manifest is no other writer's: its rows were lost (a `-wal` deleted after a killed
/// sync, say), and it and the files it names are what `verify` reports and `verify --repair`
/// adopts back into the index, as a rebuild would have read them, so nothing is lost.
struct UnindexedFeeds: Sendable {
    struct Feed: Sendable {
        var key: String
        var manifestPath: String
        /// The content files the manifest names that the storage holds.
        var files: [String]
    }

    private(set) var feeds: [Feed] = []

    /// Every such manifest of the cache folder `storage`, sorted by path; `isStored` tells which
    /// of the files it names are there. Only the feeds folder is listed, and only those manifests read.
    static func find(in storage: any CacheStorage, ownFeedKeys: Set<String>,
                     isStored: (String) -> Bool) async throws -> UnindexedFeeds {
        var found = UnindexedFeeds()
        for path in try await storage.files(named: CacheLayout.manifestFile, below: CacheLayout.feedsFolder) {
            let key = String(path.split(separator: "/")[1])
            guard !ownFeedKeys.contains(key), let bytes = try await storage.read(path),
                  let manifest = ManifestLinks.read(bytes) else { continue }
            let files = Set(manifest.paths).filter(isStored).sorted()
            found.feeds.append(Feed(key: key, manifestPath: path, files: files))
        }
        return found
    }

    /// What `verify` says of each.
    var lines: [String] {
        feeds.map { "\($0.manifestPath): manifest of a feed the index does not hold, naming \($0.files.count) stored files; "
            + "verify --repair adopts it back into the index" }
    }

    /// Writes each feed's rows, and the rows of the files it names, into `index` (rows already
    /// there are kept); returns the adopted feeds' keys. Unreadable manifests are left to the
    /// sweep's report.
    func adopt(into index: PhotoIndex, layout: CacheLayout) async throws -> [String] {
        guard !feeds.isEmpty else { return [] }
        let state = await SyncState.load(from: LocalStorage(layout: layout))
        var adopted: [String] = []
        var media: [[ManifestRows.Media]] = []
        var files = Set<String>()
        for feed in feeds {
            guard let bytes = FileContents.read(layout.absolute(feed.manifestPath)),
                  let rows = try? ManifestRows.read(Data(bytes), key: feed.key, lastSync: { state?.feeds[$0]?.lastSync })
            else { continue }
            try await index.replaceFeed(rows.feed, items: rows.items)
            adopted.append(feed.key)
            media.append(rows.media)
            files.formUnion(feed.files)
        }
        var content = await ContentRows.read(files.sorted().map { CachePath($0) }, layout: layout)
        content.takeManifestFields(from: media)
        try await index.insertRebuiltFiles(originals: content.originals, thumbnails: content.thumbnails,
                                           resources: IndexRebuilder.resources(named: media, files: content))
        return adopted
    }
}
