extension JSONReader {
    /// `read`, but the elements of the array that is the first value of `key` in the top-level
    /// object go to `element` one at a time, as they are read, instead of being kept: in the value
    /// returned, that array holds only the elements `element` returned true for. So a feed's items
    /// are read without the document's tree. Throws what `read` throws (its syntax errors), and
    /// what `element` throws.
    static func read(_ bytes: [UInt8], in range: Range<Int>, handingOver key: String,
                     _ element: (JSONValue) throws -> Bool) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, index: range.lowerBound, end: range.upperBound)
            if reader.end - reader.index >= 3, buffer[reader.index] == 0xEF, buffer[reader.index + 1] == 0xBB,
               buffer[reader.index + 2] == 0xBF {
                reader.index += 3
            }
            reader.skipWhitespace()
            let root = reader.peek() == UInt8(ascii: "{")
                ? try reader.topLevelObject(handingOver: key, element) : try reader.readValue()
            reader.skipWhitespace()
            guard reader.index == reader.end else { throw reader.failure("unexpected \(reader.found) after the top-level value") }
            return root
        }
    }

    /// The top-level object, as `object` reads it, with the first `key`'s array handed over.
    private mutating func topLevelObject(handingOver key: String, _ element: (JSONValue) throws -> Bool) throws -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members: []))
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object, found \(found)") }
            let name = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key, found \(found)") }
            index += 1
            skipWhitespace()
            // Only the first: a repeated key keeps its first value (`JSONObject`).
            if name == key, !members.contains(where: { $0.key == key }), peek() == UInt8(ascii: "[") {
                members.append(JSONMember(key: name, value: try elements(element)))
            } else {
                members.append(JSONMember(key: name, value: try readValue(depth: 1)))
            }
            if try ends(with: UInt8(ascii: "}"), after: "an object member") { return .object(JSONObject(members: members)) }
        }
    }

    /// An array one level down, as `array` reads it, each element handed over as it is read.
    private mutating func elements(_ element: (JSONValue) throws -> Bool) throws -> JSONValue {
        index += 1
        var kept: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(kept)
        }
        while true {
            let value = try readValue(depth: 2)
            if try element(value) { kept.append(value) }
            if try ends(with: UInt8(ascii: "]"), after: "an array element") { return .array(kept) }
        }
    }
}
