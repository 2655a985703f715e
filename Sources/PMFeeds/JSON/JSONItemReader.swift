/// Why one item could not be mapped; becomes an `InvalidItem`, never a whole-feed error.
struct ItemProblem: Error {
    let reason: String
}

/// Typed access to one JSON item by dotted path (`"media.m"`), with reasons that name the field.
/// `null` counts as missing. A required field of the wrong type is a problem for the item; an
/// optional one is read where its meaning is clear (`optionalString`, `optionalList`) and
/// dropped otherwise, with a warning per field: one mistyped optional field must cost that
/// field, not the item (nor, when every item has it, the feed).
struct JSONItemReader {
    let item: JSONValue
    /// Where a mistyped optional field is told; nil reads quietly (the id that names a failure).
    let warnings: ItemWarnings?

    init(item: JSONValue, warnings: ItemWarnings? = nil) {
        self.item = item
        self.warnings = warnings
    }

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

    /// A required id, which some APIs send as a number.
    func requiredLenientString(_ path: String) throws(ItemProblem) -> String {
        guard let found = value(path) else { throw ItemProblem(reason: "\"\(path)\" is missing") }
        guard let text = found.lenientString else { throw wrongType(path, expected: "a string", got: found) }
        return text
    }

    /// An optional text: a string, or the one string of a one-element array; other types are dropped.
    func optionalString(_ path: String) -> String? {
        guard let found = value(path) else { return nil }
        if let text = found.string { return text }
        return fromOneElementArray(path, found) { $0.string }
    }

    /// `optionalString` for API fields documented as strings that some responses send as numbers (ids, titles).
    func lenientString(_ path: String) -> String? {
        guard let found = value(path) else { return nil }
        if let text = found.lenientString { return text }
        return fromOneElementArray(path, found) { $0.lenientString }
    }

    /// An optional list: an array, or a lone value where the list belongs, read as a list of one.
    func optionalList(_ path: String) -> [JSONValue]? {
        guard let found = value(path) else { return nil }
        if let list = found.array { return list }
        warnings?.note(path, "item field \"\(path)\" should be an array but is \(found.typeName): read as a one-element list")
        return [found]
    }

    /// The strings of an optional list of strings (`optionalList`); other elements are dropped.
    func optionalStrings(_ path: String) -> [String] {
        (optionalList(path) ?? []).compactMap { element in
            if let text = element.string { return text }
            if case .null = element { return nil }
            warnings?.note(path + "[]", "item field \"\(path)[]\" should be a string but is \(element.typeName): ignored")
            return nil
        }
    }

    func wrongType(_ path: String, expected: String, got: JSONValue) -> ItemProblem {
        ItemProblem(reason: "\"\(path)\" should be \(expected) but is \(got.typeName)")
    }

    private func fromOneElementArray(_ path: String, _ found: JSONValue, _ read: (JSONValue) -> String?) -> String? {
        if let list = found.array, list.count == 1, let text = read(list[0]) {
            warnings?.note(path, "item field \"\(path)\" should be a string but is an array of one: read as its string")
            return text
        }
        warnings?.note(path, "item field \"\(path)\" should be a string but is \(found.typeName): ignored")
        return nil
    }
}

/// Collects mapped items and per-item failures with their position, in feed order.
struct ItemCollector {
    private(set) var items: [FeedItem] = []
    private(set) var invalid: [InvalidItem] = []
    /// What the mappings repaired or guessed, for `ParsedFeed.warnings`.
    let warnings = ItemWarnings()

    /// `id` is only worked out for an item that fails.
    mutating func add(index: Int, id: @autoclosure () -> String?, _ map: () throws(ItemProblem) -> FeedItem) {
        warnings.item = index
        do {
            items.append(try map())
        } catch {
            invalid.append(InvalidItem(index: index, id: id(), reason: "item \(index): \(error.reason)"))
        }
    }

    /// Items with ids made unique (see `FeedItemIDs.uniqued`).
    var uniqueItems: [FeedItem] { FeedItemIDs.uniqued(items) }
}
