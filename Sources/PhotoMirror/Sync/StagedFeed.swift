import PMCache
import PMFeeds
import PMLoading

/// What a sync keeps of a feed between fetching and publishing it: its row. Its items wait in the
/// index (`FeedStager`), so a sync of many long feeds holds none of them in memory.
struct StagedFeed: Sendable {
    var url: String
    /// The feed's row as staged: the new document's fields and validators (a 304's: the stored
    /// fields with the validators it answered with), its image's hash as the index knew it.
    var record: FeedRecord
    /// The server answered 304: the items in the index are those of the last sync.
    var notModified: Bool
    /// The feed's zone, which its images may reach besides public addresses; nil: any address.
    var addressHome: AddressZone?

    var key: String { record.key }
}

/// Writes a fetched feed's rows to the index as it is read (`PhotoIndex.stageFeed`, one
/// transaction): each item as it is parsed, with each image as the index knew it before the sync
/// (`ok` with its hash when the URL is known, else `failed`, "not processed", with no hash), so
/// that no parsed feed is kept. The sync settles the rows once its images are done
/// (`FeedRecorder`). Every hash a staged row names was recorded before the sync began, so a sync
/// killed at any point leaves rows that name only files in place. A feed new to the cache gets
/// a first manifest at once, without items (`Publisher.writeFirstManifest`): a feed row without
/// one is damage.
struct FeedStager: Sendable {
    let index: PhotoIndex
    let publisher: Publisher
    let clock: SyncClock
    /// `--max-images-per-item`.
    let imagesPerItem: Int
    /// `--max-items`, `--since`.
    var selection = ItemSelection()
    /// Where the images the index does not know are offered as their items are written.
    var early: EarlyStarts?

    /// A staged feed and the document's `<ttl>`; throws a `FeedError` for a document that cannot
    /// be read (its rows then stay as they were), and what the index throws.
    /// The document goes once its rows are in: the manifest is read back from the index.
    func stage(url: String, feed: consuming FetchedFeed) async throws -> (staged: StagedFeed, timeToLive: Double?) {
        let key = CacheLayout.feedKey(url: url)
        if feed.notModified, case .parsed(let stored) = feed.content {
            var record = Self.record(of: stored, key: key, url: url, feed: feed, lastSync: clock.now())
            // Its rows stay: the URLs they name evicted are looked up by them.
            try await index.gatherEvictedMedia(ofFeed: key)
            if let image = stored.image { record.imageSHA256 = try await index.knownHashes(of: [image])[image] }
            return (StagedFeed(url: url, record: record, notModified: true), nil)
        }
        let published = try await publisher.cache.storage.exists(CacheLayout.manifestPath(feedKey: key))
        let (record, timeToLive) = try await writeRows(key: key, url: url, feed: feed)
        if !published {
            do {
                try await publisher.writeFirstManifest(record)
            } catch {
                try? await index.unstageFeed(feedKey: key)
                throw error
            }
        }
        return (StagedFeed(url: url, record: record, notModified: false), timeToLive)
    }

    /// The feed's rows, in one transaction while its document is read.
    private func writeRows(key: String, url: String, feed: consuming FetchedFeed) async throws -> (FeedRecord, Double?) {
        let (content, lastSync, imagesPerItem, selection) = (feed.content, clock.now(), imagesPerItem, selection)
        let (etag, lastModified, early, home) = (feed.etag, feed.lastModified, early, feed.addressHome)
        return try await index.stageFeed(key: key, url: url) { rows in
            var added = 0
            func add(_ item: FeedItem) throws {
                var item = item
                if item.media.count > imagesPerItem { item.media.removeSubrange(max(0, imagesPerItem)...) }
                var known: [String: MediaOutcome] = [:]
                for media in item.media {
                    if let hash = try rows.knownHash(of: media.url) {
                        known[media.url] = .stored(sha256: hash, downloaded: false, bytes: 0)
                    } else {
                        early?.offer(media.url, home: home)
                    }
                }
                let record = ItemRecords.record(for: item, position: added) { known[$0] }
                try rows.add(record)
                added += 1
            }
            // Without a count, chosen items go in as they are read; with one, the newest wait here.
            var picker = ItemSelection.Picker(selection)
            func offer(_ item: FeedItem) throws {
                if selection.newest == nil {
                    if selection.admits(item) { try add(item) }
                } else {
                    picker.offer(item)
                }
            }
            let parsed: ParsedFeed
            switch content {
            case .parsed(let whole):
                for item in whole.items { try offer(item) }
                parsed = whole
            case .document(let document):
                parsed = try FeedParser.stream(document, restart: {
                    try rows.restart()
                    added = 0
                    picker = ItemSelection.Picker(selection)
                }, item: offer)
            }
            for item in picker.chosen { try add(item) }
            for (offset, invalid) in parsed.invalid.enumerated() {
                try rows.addUnique(ItemRecords.record(for: invalid, position: 2 * added + offset))
            }
            var record = FeedRecord(
                key: key, url: url, kind: parsed.kind.rawValue, title: parsed.title, link: parsed.link,
                attribution: parsed.attribution, etag: etag, lastModified: lastModified, lastSync: lastSync,
                imageURL: parsed.image, imageSHA256: nil, warnings: parsed.warnings)
            record.imageSHA256 = try parsed.image.flatMap { try rows.knownHash(of: $0) }
            return (record, parsed.timeToLive)
        }
    }

    private static func record(of parsed: ParsedFeed, key: String, url: String, feed: FetchedFeed, lastSync: Double) -> FeedRecord {
        FeedRecord(key: key, url: url, kind: parsed.kind.rawValue, title: parsed.title, link: parsed.link,
                   attribution: parsed.attribution, etag: feed.etag, lastModified: feed.lastModified, lastSync: lastSync,
                   imageURL: parsed.image, warnings: parsed.warnings)
    }
}
