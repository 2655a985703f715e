/// `ItemCollector` for a streamed feed: each item is handed over as it is mapped, not kept; the
/// entries that cannot be read are kept with their reasons, as the collector keeps them.
struct StreamedItems {
    let emit: (FeedItem) throws -> Void
    private(set) var listed = 0
    private(set) var valid = 0
    private(set) var invalid: [InvalidItem] = []
    /// What the mappings repaired or guessed, for `ParsedFeed.warnings`.
    let warnings = ItemWarnings()

    init(emit: @escaping (FeedItem) throws -> Void) {
        self.emit = emit
    }

    /// `id` is only worked out for an item that fails; throws what `emit` throws.
    mutating func add(id: @autoclosure () -> String?, _ map: () throws(ItemProblem) -> FeedItem) throws {
        let index = listed
        listed += 1
        warnings.item = index
        let item: FeedItem
        do {
            item = try map()
        } catch {
            invalid.append(InvalidItem(index: index, id: id(), reason: "item \(index): \(error.reason)"))
            return
        }
        valid += 1
        try emit(item)
    }
}
