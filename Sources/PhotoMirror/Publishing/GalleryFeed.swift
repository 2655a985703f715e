import PMCache

/// A feed as the gallery pages see it: its row, its items (all of them, or one page's) and the
/// files the index has for them.
struct GalleryFeed {
    var record: FeedRecord
    /// A slice, so that a page of a feed held whole shares its items instead of copying them.
    var items: ArraySlice<ItemRecord>
    var paths: [String: StoredPaths]
    /// The media URLs' HTTP validators, for the manifest (the pages show none).
    var validators: [String: MediaValidators] = [:]
    /// Of the whole feed, when `items` is one page of it.
    var counts: FeedCounts

    init(record: FeedRecord, items: [ItemRecord], paths: [String: StoredPaths], validators: [String: MediaValidators] = [:],
         counts: FeedCounts? = nil) {
        self.init(record: record, items: items[...], paths: paths, validators: validators, counts: counts)
    }

    init(record: FeedRecord, items: ArraySlice<ItemRecord>, paths: [String: StoredPaths],
         validators: [String: MediaValidators] = [:], counts: FeedCounts? = nil) {
        self.record = record
        self.items = items
        self.paths = paths
        self.validators = validators
        self.counts = counts ?? FeedCounts(items)
    }

    var displayTitle: String { record.displayTitle }
}

extension FeedRecord {
    /// The title people see: the feed's own, or its URL when it has none.
    var displayTitle: String {
        let title = HTML.trimmingWhitespace(self.title)
        return title.isEmpty ? url : title
    }

    /// Ends a feed's meta line with its source link (http(s) only), then its attribution
    /// (Marvel's required credit) as a paragraph of its own.
    func writeSourceAndAttribution(to page: inout HTMLBuffer) {
        if let source = HTML.safeExternalLink(link) {
            page.markup(" · <a href=\"")
            page.markup(source)
            page.markup("\" rel=\"noopener noreferrer\">source</a>")
        }
        page.markup("</p>\n")
        if let attribution {
            page.markup("<p class=\"attribution\">")
            page.text(attribution)
            page.markup("</p>\n")
        }
    }
}

/// How many of a feed's items are in each state, as the gallery reports them.
struct FeedCounts: Equatable {
    var items = 0, ok = 0, failed = 0, noImage = 0, evicted = 0, skipped = 0

    init(_ records: some Sequence<ItemRecord>) {
        var byStatus: [ItemStatus: Int] = [:]
        for item in records { byStatus[item.status, default: 0] += 1 }
        self.init(byStatus)
    }

    init(_ byStatus: [ItemStatus: Int]) {
        for (status, count) in byStatus {
            items += count
            switch status {
            case .ok: ok += count
            case .failed: failed += count
            case .noImage: noImage += count
            case .skipped: skipped += count
            case .evicted, .evictedOriginal: evicted += count
            }
        }
    }

    /// "12 items · 10 mirrored · 2 failed"; then " · synced 2026-11-29 13:00 UTC" when `syncedAt`
    /// is given. Feed pages leave the time out, so that a sync that changed nothing leaves them
    /// byte for byte as they were (and their HTTP validators with them).
    func write(to page: inout HTMLBuffer, syncedAt: Double?) {
        page.number(items)
        page.markup(items == 1 ? " item · " : " items · ")
        page.number(ok)
        page.markup(" mirrored")
        for (count, label) in [(failed, " failed"), (noImage, " without image"), (skipped, " skipped"), (evicted, " evicted")] where count > 0 {
            page.markup(" · ")
            page.number(count)
            page.markup(label)
        }
        guard let syncedAt else { return }
        let stamp = W3CTimestamp.format(syncedAt)
        page.markup(" · synced <time datetime=\"")
        page.markup(stamp)
        page.markup("\">")
        page.text("\(stamp.prefix(10)) \(stamp.dropFirst(11).prefix(5)) UTC")
        page.markup("</time>")
    }
}
