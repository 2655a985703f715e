/// A JSON object's members in document order. Lookup is a linear scan: feed objects hold about a
/// dozen keys and each is asked for a few of them, which costs less than hashing every key into a
/// `Dictionary` first (that hashing and the rehashing as it grew were a quarter of a feed's parse).
/// A repeated key answers with its first value, as Foundation's `JSONDecoder` did.
package struct JSONObject: Sendable {
    package let members: [JSONMember]

    package subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// Each key once, in order of first appearance.
    var keys: [String] {
        var seen: Set<String> = []
        return members.map(\.key).filter { seen.insert($0).inserted }
    }
}

/// A struct rather than a tuple: arrays of tuples are copied and destroyed through the runtime's
/// generic tuple witnesses, which took a tenth of a parse.
package struct JSONMember: Sendable {
    package let key: String
    package let value: JSONValue
}
