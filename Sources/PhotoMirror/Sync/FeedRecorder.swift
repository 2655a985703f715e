import Foundation
import PMCache

/// The sync's step between mirroring and publishing: a staged feed's rows are settled from what
/// the sync did with each image (`MediaLedger`), a page at a time, and the publisher then writes
/// the feed's files from the index. Publishing never sees a fetched feed or a media outcome.
struct FeedRecorder: Sendable {
    let index: PhotoIndex
    let publisher: Publisher

    /// Items read per page while settling.
    static let pageItems = 256

    struct Recorded {
        var report: FeedReport
        var failures: [ItemFailure]
    }

    /// Settles a feed's rows, then has its manifest and pages written from the index. A feed whose
    /// rows come out as they were last published (same digest, see `FeedContent`) and none of
    /// whose images got new files in this sync is only marked as synced: its files stay untouched.
    /// `reader`: a read-only connection the feed's documents are read through (`Publisher.reading(from:)`).
    func record(_ staged: StagedFeed, ledger: MediaLedger, reader: PhotoIndex? = nil) async throws -> Recorded {
        let publisher = self.publisher.reading(from: reader)
        let key = staged.key
        let start = ledger.clock.start
        var record = staged.record
        record.lastSync = ledger.clock.now()
        var imageFilesWritten = false
        if let image = record.imageURL {
            let state = try await index.syncMedia(for: [image])[image]
            let settled = ledger.settled(MediaRecord(url: image, source: "", status: .ok, error: nil, sha256: record.imageSHA256),
                                         state: state?.state)
            record.imageSHA256 = settled.sha256
            imageFilesWritten = settled.status == .ok && (state?.filesStoredAt ?? -.infinity) >= start
        }
        let (sizes, notModified, url, settledRecord) = (publisher.sizes, staged.notModified, staged.url, record)
        // A 304 in a sync that changed no URL's row, for rows naming only stored images: each
        // was reused as staged, so the images' rows need not be read again.
        let quiet = notModified && ledger.changedNothing
        let asStaged = quiet ? try await index.namesOnlyStoredMedia(feedKey: key) : false
        let lookupIndex = reader ?? index
        let (tally, content, itemFilesWritten, stagedCounts, settledItems) = try await index.settleFeed(key: key) { rows in
            var tally = FeedTally(url: url, title: settledRecord.title)
            tally.report.kind = settledRecord.kind
            tally.report.manifest = CacheLayout.manifestPath(feedKey: key)
            tally.report.warnings = settledRecord.warnings
            tally.report.unchanged = notModified
            var digest = FeedContent.Digest(record: settledRecord, sizes: sizes, itemCount: rows.count)
            var filesWritten = false
            // Settled as staged, each stored status is the one the files give (every image whole).
            var byStatus: [ItemStatus: Int] = [:]
            // Kept for the documents, which then need not read the items again; a feed settled
            // as staged is nearly always unchanged, and its documents are not written.
            var settled = asStaged ? nil : SettledItems(count: rows.count)
            while true {
                let items = try rows.nextPage(limit: Self.pageItems)
                guard !items.isEmpty else { break }
                let states = asStaged ? [:] : try rows.states(of: Array(Set(items.flatMap { $0.allMedia.map(\.url) })))
                for (offset, stagedItem) in items.enumerated() {
                    var item = stagedItem
                    if asStaged {
                        for media in item.allMedia where media.status == .ok { tally.stored(media.url, downloaded: false) }
                        byStatus[item.status, default: 0] += 1
                    }
                    for (offset, media) in stagedItem.allMedia.enumerated() where !asStaged {
                        // Ordinal 0 is the item's own row; its further images are 1, 2, ….
                        let ordinal = stagedItem.mediaURL == nil ? offset + 1 : offset
                        let state = states[media.url]
                        let settled = ledger.settled(media, state: state)
                        if settled != media {
                            try rows.settle(PhotoIndex.SettledMedia(itemID: item.itemID, ordinal: ordinal, status: settled.status,
                                                                    error: settled.error, sha256: settled.sha256))
                            item.setMedia(settled, at: ordinal)
                        }
                        guard settled.status == .ok, let state, ledger.isDone(lastAccess: state.lastAccess) else { continue }
                        if (state.filesStoredAt ?? -.infinity) >= start { filesWritten = true }
                        tally.stored(media.url, downloaded: state.fetchedAt >= start)
                    }
                    digest.add(item)
                    tally.add(item)
                    if settled?.add(item, rowid: rows.pageRowids[offset]) == false {
                        settled?.cancel()
                        settled = nil
                    }
                }
                settled?.lookUp(in: lookupIndex)
            }
            if let whole = settled, whole.rowids.count != rows.count {
                whole.cancel()
                settled = nil
            }
            return (tally, digest.finish(), filesWritten, asStaged ? FeedCounts(byStatus) : nil, settled)
        }
        try await index.finishSync(feedKey: key, at: record.lastSync, etag: record.etag, lastModified: record.lastModified,
                                   imageSHA256: record.imageSHA256)
        let recorded = Recorded(report: tally.report, failures: tally.failures)
        if try await isUnchanged(key, digest: content, filesWritten: imageFilesWritten || itemFilesWritten) {
            settledItems?.cancel()
            if let card = try await publisher.card(feedKey: key, counts: stagedCounts) { try await publisher.writeCard(card) }
            return recorded
        }
        // The pages are written from the index, the single source of truth: from its rows as the
        // settle wrote them, or read back.
        _ = try await publisher.writeFeedFiles(feedKey: key, updatedAt: record.lastSync, settled: settledItems)
        try await index.setContentDigest(content, feedKey: key)
        return recorded
    }

    private func isUnchanged(_ key: String, digest: String, filesWritten: Bool) async throws -> Bool {
        guard !filesWritten, try await index.contentDigest(feedKey: key) == digest else { return false }
        for path in [CacheLayout.manifestPath(feedKey: key), CacheLayout.jsonFeedPath(feedKey: key)] {
            guard try await publisher.cache.storage.exists(path) else { return false }
        }
        return true
    }
}

/// A feed's report, counted an item at a time: items by status, failed images with their
/// reasons, and the images stored by this sync, downloaded or reused, each URL once.
struct FeedTally {
    var report: FeedReport
    var failures: [ItemFailure] = []
    /// The URLs counted as stored, by hash value: a feed listing one image twice counts it once.
    private var counted = Set<Int>()

    init(url: String, title: String) {
        report = FeedReport(url: url, title: title)
    }

    mutating func add(_ item: ItemRecord) {
        report.items += 1
        switch item.status {
        case .ok: report.ok += 1
        case .noImage: report.noImage += 1
        case .skipped: report.skipped += 1
        default:
            report.failed += 1
            failures.append(ItemFailure(feedURL: report.url, itemID: item.itemID, mediaURL: item.mediaURL,
                                        reason: item.error ?? "failed"))
        }
        for media in item.moreMedia where media.status == .failed {
            report.moreImagesFailed += 1
            failures.append(ItemFailure(feedURL: report.url, itemID: item.itemID, mediaURL: media.url,
                                        reason: media.error ?? "failed"))
        }
    }

    mutating func stored(_ url: String, downloaded: Bool) {
        guard counted.insert(url.hashValue).inserted else { return }
        if downloaded { report.downloaded += 1 } else { report.reused += 1 }
    }
}

extension ItemRecord {
    /// Puts `media` in the place of the item's image `ordinal` (0: its own fields).
    mutating func setMedia(_ media: MediaRecord, at ordinal: Int) {
        guard ordinal > 0 else {
            (status, error, sha256) = (media.status, media.error, media.sha256)
            return
        }
        moreMedia[ordinal - 1] = media
    }
}
