import PMCache

/// A feed being published, read from the index a page at a time: its row, its counts and its
/// own image up front, then its items in the order a document lists them (`order`), a page of
/// them with the files of their images at a time (`page`). A 100 000-item feed is then never in
/// memory whole, only its items' rowids.
struct PagedFeed: Sendable {
    let index: PhotoIndex
    let record: FeedRecord
    private(set) var counts: FeedCounts
    /// The files of the feed's own image, when its row names one.
    let logo: StoredPaths?
    let logoValidators: MediaValidators?
    /// The files of every image, when the caller holds them (a prune): looked up, not joined.
    var known: KnownFiles?
    /// The whole feed's items, when they were read at once (see `heldItems`).
    private var held: HeldItems?
    private var heldPaths: [String: StoredPaths] = [:]
    private var heldValidators: [String: MediaValidators] = [:]

    /// Items read per page for the manifest and the JSON Feed (the gallery's pages read theirs).
    static let pageItems = 256
    /// A caller holding every image's files (`known`: a prune, a repair) already holds memory
    /// in proportion to the cache, so a feed of up to this many items is read once and its
    /// manifest, JSON Feed and pages are written from that read instead of three of their own.
    static let heldItems = 8192
    /// The same for a sync writing a feed's documents (`whole`), which holds no such memory: a
    /// feed of up to this many items (nearly every real one) is read once, when their text
    /// takes at most `heldBytesWhenWhole` (full-content feeds carry whole articles).
    static let heldItemsWhenWhole = 1024
    static let heldBytesWhenWhole = 4 << 20

    /// `counts`, when the caller has them (a sync that reused every image of the feed as its
    /// rows name it), saves deriving each item's status from its image's files; a feed read at
    /// once (`heldItems`) counts the statuses its items were read with. `whole`: every item will
    /// be read (the feed's documents, not its card).
    /// `settled`: the whole feed's items as the caller's settle left them, held as they are.
    static func load(key: String, index: PhotoIndex, known: KnownFiles? = nil, counts given: FeedCounts? = nil,
                     whole: Bool = false, settled: SettledItems? = nil) async throws -> PagedFeed?
    {
        guard let record = try await index.feed(key: key) else { return nil }
        let image = try await index.feedImage(feedKey: key)
        var feed = PagedFeed(index: index, record: record, counts: given ?? FeedCounts([:]),
                             logo: image.files.map { StoredPaths(original: $0.original, thumbnails: $0.thumbnails) },
                             logoValidators: image.validators, known: known)
        let bound: (items: Int, bytes: Int?)? = known != nil ? (heldItems, nil) : whole ? (heldItemsWhenWhole, heldBytesWhenWhole) : nil
        if let settled, known == nil {
            let items = try await feed.hold(settled)
            if given == nil { feed.counts = FeedCounts(items) }
        } else if let bound, let items = try await feed.hold(upTo: bound.items, budget: bound.bytes) {
            if given == nil { feed.counts = FeedCounts(items) }
        } else if given == nil {
            feed.counts = FeedCounts(try await index.statusCounts(feedKey: key, known: known))
        }
        return feed
    }

    /// Whether the whole feed was read at once (`hold`).
    var isHeld: Bool { held != nil }

    /// Reads the whole feed at once when it has at most `limit` items and, with a `budget`, when
    /// their text takes at most that many bytes (read a page at a time until it is known);
    /// returns them, or nil when it stays paged.
    private mutating func hold(upTo limit: Int, budget: Int?) async throws -> ArraySlice<ItemRecord>? {
        let rowids = try await order(newestFirst: false)
        guard rowids.count <= limit else { return nil }
        let parts = budget == nil || rowids.count <= Self.pageItems ? [rowids[...]] : Self.pages(of: rowids, size: Self.pageItems)
        var items: [ItemRecord] = [], paths: [String: StoredPaths] = [:], validators: [String: MediaValidators] = [:]
        var bytes = 0
        for part in parts {
            let next = try await page(part)
            if let budget {
                bytes += next.items.reduce(0) { $0 + Self.heldBytes(of: $1) }
                guard bytes <= budget else { return nil }
            }
            items += next.items
            paths.merge(next.paths) { kept, _ in kept }
            validators.merge(next.validators) { kept, _ in kept }
        }
        // Rows that went between the two reads (none under the writers' lock) leave it paged.
        guard items.count == rowids.count else { return nil }
        held = HeldItems(feedOrder: rowids, items: items)
        (heldPaths, heldValidators) = (paths, validators)
        return items[...]
    }

    /// Holds `settled`, with the files and validators their lookups found; returns them in
    /// feed order, statuses derived.
    private mutating func hold(_ settled: SettledItems) async throws -> [ItemRecord] {
        let found = try await settled.found()
        let keys = found.items.indices.map {
            ItemOrderKey(rowid: settled.rowids[$0], position: found.items[$0].position, published: found.items[$0].published)
        }
        let order = PhotoIndex.itemOrder(keys, newestFirst: false)
        let place = Dictionary(uniqueKeysWithValues: zip(settled.rowids, found.items.indices))
        let items = order.map { found.items[place[$0]!] }
        held = HeldItems(feedOrder: order, items: items)
        (heldPaths, heldValidators) = withLogo(found)
        return items
    }

    /// About what an item held takes: its longest texts and the record around them.
    static func heldBytes(of item: ItemRecord) -> Int {
        512 + item.title.utf8.count + (item.description?.utf8.count ?? 0)
    }

    /// The items' rowids in feed order (the manifest's), or newest first (the pages' and the JSON Feed's).
    func order(newestFirst: Bool) async throws -> [Int64] {
        if let held { return newestFirst ? held.newest.rowids : held.feedOrder.rowids }
        return try await index.itemOrder(feedKey: record.key, newestFirst: newestFirst)
    }

    /// The items `rowids` name, in that order, as a feed of their own with the whole feed's counts
    /// and its logo among the paths.
    func page(_ rowids: ArraySlice<Int64>) async throws -> GalleryFeed {
        if let held {
            return GalleryFeed(record: record, items: held.items(rowids), paths: heldPaths, validators: heldValidators, counts: counts)
        }
        let stored = try await index.feedItems(feedKey: record.key, rowids: Array(rowids), known: known)
        let (paths, validators) = withLogo(stored)
        return GalleryFeed(record: record, items: stored.items, paths: paths, validators: validators, counts: counts)
    }

    /// The files and validators of `read`'s images as the documents name them, with the feed's
    /// own image among them.
    private func withLogo(_ read: PhotoIndex.FeedItems) -> (paths: [String: StoredPaths], validators: [String: MediaValidators]) {
        var paths = read.files.mapValues { StoredPaths(original: $0.original, thumbnails: $0.thumbnails, warning: $0.warning,
                                                       placeholder: $0.placeholder) }
        var validators = read.validators
        if let image = record.imageSHA256, let logo, paths[image] == nil { paths[image] = logo }
        if let url = record.imageURL, let logoValidators, validators[url] == nil { validators[url] = logoValidators }
        return (paths, validators)
    }

    /// `order` cut into pages of `size`.
    static func pages(of order: [Int64], size: Int) -> [ArraySlice<Int64>] {
        stride(from: 0, to: order.count, by: size).map { order[$0..<min($0 + size, order.count)] }
    }
}

/// A feed's items read at once, in its two orders: a page of either order is a slice of the
/// items in that order, shared rather than copied item by item (a prune's three documents take
/// 300 000 pages' items at 100 000 images).
private struct HeldItems: Sendable {
    struct Ordered: Sendable {
        let rowids: [Int64]
        let items: [ItemRecord]
    }

    let feedOrder: Ordered
    let newest: Ordered
    /// Where each rowid's item is in feed order, for rowids that are no slice of either order.
    private let place: [Int64: Int]

    /// `items` are those `feedOrder` names, in that order.
    init(feedOrder rowids: [Int64], items: [ItemRecord]) {
        feedOrder = Ordered(rowids: rowids, items: items)
        // By index: a zip would copy each whole record for two of its fields.
        let keys = items.indices.map { ItemOrderKey(rowid: rowids[$0], position: items[$0].position, published: items[$0].published) }
        let newestRowids = PhotoIndex.itemOrder(keys, newestFirst: true)
        place = Dictionary(uniqueKeysWithValues: zip(rowids, rowids.indices))
        newest = Ordered(rowids: newestRowids, items: newestRowids.map { [place] in items[place[$0]!] })
    }

    /// The items `rowids` name, in that order.
    func items(_ rowids: ArraySlice<Int64>) -> ArraySlice<ItemRecord> {
        let range = rowids.indices
        for order in [feedOrder, newest] where range.upperBound <= order.rowids.count && order.rowids[range].elementsEqual(rowids) {
            return order.items[range]
        }
        return ArraySlice(rowids.compactMap { place[$0].map { feedOrder.items[$0] } })
    }
}
