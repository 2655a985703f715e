import Foundation

/// Untyped JSON, so a feed is decoded once and each item is mapped on its own: a wrongly typed
/// field then invalidates one item instead of failing a typed decoder for the whole document.
/// Built by `JSONReader`.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Numbers and numeric strings: Flickr sends `"total": "1270"` in one response and `1000` in another.
    var lenientInt: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        case .string(let value): Int(value.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Strings, or numbers rendered as text (ids that some clients send as numbers).
    var lenientString: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        default: nil
        }
    }

    /// The JSON type name, for "expected a string, got a number" reasons.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The document `bytes` hold, or nil when they are not JSON: for readers of photomirror's
    /// own files (manifests, JSON Feeds), which only tell a valid file from a damaged one.
    /// Members named in `skippedKeys`, in any object, are checked but left out (see
    /// `JSONReader.read(_:in:skipping:)`).
    package static func parse(_ bytes: [UInt8], skipping skippedKeys: Set<String> = []) -> JSONValue? {
        try? decode(bytes, skipping: skippedKeys, as: "")
    }

    /// The document in `bytes[range]` (all of `bytes` by default). `what` names it in the error,
    /// whose line and column count from the start of `bytes`.
    static func decode(_ bytes: [UInt8], in range: Range<Int>? = nil, skipping skippedKeys: Set<String> = [],
                       as what: String) throws(FeedError) -> JSONValue {
        var (text, range, what) = (bytes, range ?? bytes.indices, what)
        if let (encoding, markLength) = JSONTextEncoding.detect(text, in: range) {
            guard let converted = encoding.utf8(text[(range.lowerBound + markLength)..<range.upperBound]) else {
                throw FeedError("\(what) looks like \(encoding.rawValue) text but is not valid \(encoding.rawValue)")
            }
            (text, range, what) = (converted, converted.indices, "\(what) (\(encoding.rawValue), read as UTF-8)")
        }
        do {
            return try JSONReader.read(text, in: range, skipping: skippedKeys)
        } catch {
            throw FeedError("\(what) is not valid JSON: \(error.description(in: text))")
        }
    }
}
