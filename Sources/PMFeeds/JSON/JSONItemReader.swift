/// Why one item could not be mapped; becomes an `InvalidItem`, never a whole-feed error.
struct ItemProblem: Error {
    let reason: String
}

/// Typed access to one JSON item by dotted path (`"media.m"`), with reasons that name the field.
/// `null` counts as missing; a present value of the wrong type is a problem, not a silent nil.
struct JSONItemReader {
    let item: JSONValue

    /// `path` is one of this module's literals: a key, or keys joined by single dots. A plain key
    /// is looked up as it is; splitting every path on every field read cost more than the lookups.
    func value(_ path: String) -> JSONValue? {
        var bytes = path
        let found: JSONValue?
        if let dot = bytes.withUTF8({ $0.firstIndex(of: UInt8(ascii: ".")) }) {
            let utf8 = path.utf8, split = utf8.index(utf8.startIndex, offsetBy: dot)
            found = item[String(path[..<split])].flatMap { JSONItemReader(item: $0).value(String(path[utf8.index(after: split)...])) }
        } else {
            found = item[path]
        }
        if case .null? = found { return nil }
        return found
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

    /// `id` is only worked out for an item that fails.
    mutating func add(index: Int, id: @autoclosure () -> String?, _ map: () throws(ItemProblem) -> FeedItem) {
        do {
            items.append(try map())
        } catch {
            invalid.append(InvalidItem(index: index, id: id(), reason: "item \(index): \(error.reason)"))
        }
    }

    /// Items with ids made unique (see `FeedItemIDs.uniqued`).
    var uniqueItems: [FeedItem] { FeedItemIDs.uniqued(items) }
}
