import PMCache

/// What a sync keeps of a feed between fetching and publishing it: its row. Its items wait in the
/// index (`FeedStager`), so a sync of many long feeds holds none of them in memory.
struct StagedFeed: Sendable {
    var url: String
    /// The feed's row as staged: the new document's fields and validators (a 304's: the stored
    /// fields with the validators it answered with), its image's hash as the index knew it.
    var record: FeedRecord
    /// The server answered 304: the items in the index are those of the last sync.
    var notModified: Bool

    var key: String { record.key }
}

/// Writes a fetched feed's rows to the index as soon as it is parsed, so that the parsed feed can
/// go: each image as the index knew it before the sync (`ok` with its hash when the URL is known,
/// else `failed`, "not processed", with no hash). The sync settles them once its images are done
/// (`FeedRecorder`). Every hash a staged row names was recorded before the sync began, so a sync
/// killed at any point leaves rows that name only files in place. A feed new to the cache gets
/// its manifest at once, from the staged rows: a feed row without one is damage.
struct FeedStager: Sendable {
    let index: PhotoIndex
    let publisher: Publisher
    let clock: SyncClock

    func stage(url: String, feed: consuming FetchedFeed) async throws -> StagedFeed {
        let parsed = feed.parsed
        var urls = Set<String>()
        for item in parsed.items { for media in item.media { urls.insert(media.url) } }
        if let image = parsed.image { urls.insert(image) }
        let known = try await index.knownHashes(of: Array(urls))
        let record = FeedRecord(
            key: CacheLayout.feedKey(url: url), url: url, kind: parsed.kind.rawValue, title: parsed.title,
            link: parsed.link, attribution: parsed.attribution, etag: feed.etag, lastModified: feed.lastModified,
            lastSync: clock.now(), imageURL: parsed.image, imageSHA256: parsed.image.flatMap { known[$0] },
            warnings: parsed.warnings)
        if !feed.notModified {
            let items = ItemRecords.make(feed: parsed, outcomes: known.mapValues { .stored(sha256: $0, downloaded: false, bytes: 0) })
            let manifest = CacheLayout.manifestPath(feedKey: record.key)
            let published = try await publisher.cache.storage.exists(manifest)
            try await index.replaceFeed(record, items: items)
            if !published {
                do {
                    try await publisher.writeManifest(feedKey: record.key, updatedAt: record.lastSync)
                } catch {
                    try? await index.unstageFeed(feedKey: record.key)
                    throw error
                }
            }
        }
        return StagedFeed(url: url, record: record, notModified: feed.notModified)
    }
}
