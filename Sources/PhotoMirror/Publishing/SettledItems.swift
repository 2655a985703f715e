import PMCache

/// A feed's items as a sync's settle read and wrote them (`FeedRecorder`), kept for its
/// documents while they fit what a sync holds of a feed (`PagedFeed.heldItemsWhenWhole`,
/// `heldBytesWhenWhole`): the documents then need not read the items again. Their images'
/// files and validators are looked up a page at a time through another connection, beside the
/// settle's own work on the writer's: those rows were committed before the settle began, and
/// it changes none of them.
struct SettledItems: Sendable {
    /// The rowids of the items added, in the order they were settled (their rows').
    private(set) var rowids: [Int64] = []
    /// The items added since the last `lookUp`.
    private var waiting: [ItemRecord] = []
    private var lookups: [Task<PhotoIndex.FeedItems, any Error>] = []
    private var bytes = 0

    /// Nil for a feed of more items than a sync holds.
    init?(count: Int) {
        guard count <= PagedFeed.heldItemsWhenWhole else { return nil }
        rowids.reserveCapacity(count)
    }

    /// Adds an item as settled; false once the items' text is more than a sync holds.
    mutating func add(_ item: ItemRecord, rowid: Int64) -> Bool {
        bytes += PagedFeed.heldBytes(of: item)
        guard bytes <= PagedFeed.heldBytesWhenWhole else { return false }
        waiting.append(item)
        rowids.append(rowid)
        return true
    }

    /// Starts looking up, through `index`, the files and validators of the items added since
    /// the last call.
    mutating func lookUp(in index: PhotoIndex) {
        guard !waiting.isEmpty else { return }
        let items = waiting
        waiting = []
        lookups.append(Task {
            try Task.checkCancellation()
            return try await index.feedItems(settled: items)
        })
    }

    /// Every item added, statuses derived from their images' files, with those files and their
    /// media URLs' validators, in the order they were added (`rowids`'). Call `lookUp` first.
    func found() async throws -> PhotoIndex.FeedItems {
        precondition(waiting.isEmpty, "items added after the last lookUp")
        var found = PhotoIndex.FeedItems()
        found.items.reserveCapacity(rowids.count)
        for lookup in lookups {
            let page = try await lookup.value
            found.items += page.items
            found.files.merge(page.files) { kept, _ in kept }
            found.validators.merge(page.validators) { kept, _ in kept }
        }
        return found
    }

    /// Stops the lookups not started yet (one already reading runs to its end): the documents
    /// will not be written from these items.
    func cancel() {
        for lookup in lookups { lookup.cancel() }
    }
}
