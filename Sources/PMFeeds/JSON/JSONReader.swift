/// Reads JSON (RFC 8259) from UTF-8 bytes straight into `JSONValue`, in one pass over the bytes.
///
/// It replaces `JSONDecoder` decoding an untyped `Decodable`, which builds its own map of the
/// document first and then, for every string, throws three `DecodingError`s while probing
/// Bool/Int/Double: 70% of a 2000-item feed's parse time. Where RFC 8259 leaves room, it keeps
/// what that decoder did, so feeds that parsed before still parse the same:
/// - one trailing comma in an array or object is accepted (`[1,]`);
/// - a repeated key keeps its first value (see `JSONObject`);
/// - a leading UTF-8 byte-order mark is skipped;
/// - integers that fit `Int` are `.int`, and so are `1.0`, `1e2` and other whole numbers below
///   2^53 written with a fraction or exponent; others are `.double`, and ones beyond `Double`'s
///   range are an error;
/// - at most 512 nested arrays and objects (which also bounds this reader's recursion).
/// One deliberate extension: `\'` in a string reads as `'`. Flickr's feeds emit it, and no valid
/// JSON contains it, so accepting it is the same as repairing the bytes first.
struct JSONReader: ~Copyable {
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int
    /// Reused for strings with escapes, so each one does not allocate its own buffer.
    var scratch: [UInt8] = []
    /// Members of the objects being read, innermost last: each object's array is made once at
    /// its `}` with the right size, instead of growing member by member.
    var pendingMembers: [JSONMember] = []
    /// Object members whose values are checked but not kept (see `read(_:in:skipping:)`).
    var skippedKeys: Set<String> = []

    /// The value in `bytes[range]`; offsets in a thrown error count from the start of `bytes`.
    /// Members of any object named by `skippedKeys` are left out of it, their values checked as
    /// strictly as the rest but never made: for readers that need a few fields of a large file.
    static func read(_ bytes: [UInt8], in range: Range<Int>,
                     skipping skippedKeys: Set<String> = []) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, JSONSyntaxError> in
            var reader = JSONReader(bytes: buffer, index: range.lowerBound, end: range.upperBound)
            reader.skippedKeys = skippedKeys
            return Result { () throws(JSONSyntaxError) in try reader.document() }
        }
        return try result.get()
    }

    private mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if end - index >= 3, bytes[index] == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF { index += 3 }
        let root = try value(depth: 0)
        skipWhitespace()
        guard index == end else { throw failure("unexpected \(found) after the top-level value") }
        return root
    }

    /// The byte at the cursor, or 0 at the end. 0 is never valid where this is used (outside
    /// strings it is no token, inside it is an unescaped control character), so callers need
    /// only one comparison, and every read is bounds-checked here.
    @inline(__always) func peek() -> UInt8 { index < end ? bytes[index] : 0 }

    @inline(__always) mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The value at the cursor, `depth` arrays and objects down.
    mutating func readValue(depth: Int = 0) throws(JSONSyntaxError) -> JSONValue {
        try value(depth: depth)
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: throw failure("unexpected \(found)")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("more than \(Self.maxDepth) nested arrays and objects") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            if try ends(with: UInt8(ascii: "]"), after: "an array element") { return .array(elements) }
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("more than \(Self.maxDepth) nested arrays and objects") }
        index += 1
        let first = pendingMembers.count
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members: []))
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object, found \(found)") }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key, found \(found)") }
            index += 1
            if !skippedKeys.isEmpty, skippedKeys.contains(key) {
                try skipValue(depth: depth)
            } else {
                pendingMembers.append(JSONMember(key: key, value: try value(depth: depth)))
            }
            if try ends(with: UInt8(ascii: "}"), after: "an object member") { return .object(takeMembers(from: first)) }
        }
    }

    private mutating func takeMembers(from first: Int) -> JSONObject {
        let members = Array(pendingMembers[first...])
        pendingMembers.removeSubrange(first...)
        return JSONObject(members: members)
    }

    /// After an array element or object member: consumes `close` (true: the container ends) or a
    /// comma (false: another one follows; a trailing comma right before `close` also ends it).
    mutating func ends(with close: UInt8, after what: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch peek() {
        case close:
            index += 1
            return true
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            guard peek() == close else { return false }
            index += 1
            return true
        default:
            throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what), found \(found)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard peek() == byte else { throw failure("unexpected \(found) in what should be '\(word)'") }
            index += 1
        }
    }

    /// The byte at the cursor for an error message; the bytes are untrusted, so anything but
    /// printable ASCII is shown in hex.
    var found: String {
        guard index < end else { return "end of input" }
        let byte = bytes[index]
        return (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(JSONSyntaxError.hex(byte))"
    }

    func failure(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, problem: problem)
    }
}
