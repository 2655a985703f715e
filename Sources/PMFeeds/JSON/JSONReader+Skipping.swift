extension JSONReader {
    /// Steps over the value at the cursor, `depth` arrays and objects down, with the checks
    /// `readValue` makes, keeping nothing: no strings, arrays or objects are made.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"): try skipContainer(depth: depth + 1, close: UInt8(ascii: "}"), what: "an object member")
        case UInt8(ascii: "["): try skipContainer(depth: depth + 1, close: UInt8(ascii: "]"), what: "an array element")
        default: _ = try readValue(depth: depth)  // numbers and literals allocate nothing
        }
    }

    private mutating func skipContainer(depth: Int, close: UInt8, what: String) throws(JSONSyntaxError) {
        guard depth <= Self.maxDepth else { throw failure("more than \(Self.maxDepth) nested arrays and objects") }
        let isObject = close == UInt8(ascii: "}")
        index += 1
        skipWhitespace()
        if peek() == close {
            index += 1
            return
        }
        while true {
            if isObject {
                guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object, found \(found)") }
                try skipString()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key, found \(found)") }
                index += 1
            }
            try skipValue(depth: depth)
            if try ends(with: close, after: what) { return }
        }
    }
}
