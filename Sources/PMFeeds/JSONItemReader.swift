/// Why one item could not be mapped; becomes an `InvalidItem`, never a whole-feed error.
struct ItemProblem: Error {
    let reason: String
}

/// Typed access to one JSON item by dotted path (`"media.m"`), with reasons that name the field.
/// `null` counts as missing; a present value of the wrong type is a problem, not a silent nil.
struct JSONItemReader {
    let item: JSONValue

    func value(_ path: String) -> JSONValue? {
        var current: JSONValue? = item
        for key in path.split(separator: ".") { current = current?[String(key)] }
        if case .null? = current { return nil }
        return current
    }

    func requiredString(_ path: String) throws(ItemProblem) -> String {
        guard let found = value(path) else { throw ItemProblem(reason: "\"\(path)\" is missing") }
        guard let text = found.string else { throw wrongType(path, expected: "a string", got: found) }
        return text
    }

    func optionalString(_ path: String) throws(ItemProblem) -> String? {
        guard let found = value(path) else { return nil }
        guard let text = found.string else { throw wrongType(path, expected: "a string", got: found) }
        return text
    }

    /// For API fields documented as strings that some responses send as numbers (ids, titles).
    func lenientString(_ path: String) throws(ItemProblem) -> String? {
        guard let found = value(path) else { return nil }
        guard let text = found.lenientString else { throw wrongType(path, expected: "a string", got: found) }
        return text
    }

    func wrongType(_ path: String, expected: String, got: JSONValue) -> ItemProblem {
        ItemProblem(reason: "\"\(path)\" should be \(expected) but is \(got.typeName)")
    }
}

/// Collects mapped items and per-item failures with their position, in feed order.
struct ItemCollector {
    private(set) var items: [FeedItem] = []
    private(set) var invalid: [InvalidItem] = []

    mutating func add(index: Int, id: String?, _ map: () throws(ItemProblem) -> FeedItem) {
        do {
            items.append(try map())
        } catch {
            invalid.append(InvalidItem(index: index, id: id, reason: "item \(index): \(error.reason)"))
        }
    }

    /// Items with ids made unique (see `FeedItemIDs.uniqued`).
    var uniqueItems: [FeedItem] { FeedItemIDs.uniqued(items) }
}
