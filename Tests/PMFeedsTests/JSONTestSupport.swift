import Foundation
@testable import PMFeeds

/// A canonical text form of a decoded document, to compare readers: keys sorted, each key once
/// with the value a lookup answers, scalars above ASCII as `\u{…}`.
func dump(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .int(let number): "int(\(number))"
    case .double(let number): "double(\(number))"
    case .string(let text): "\"" + text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
    case .array(let elements): "[" + elements.map(dump).joined(separator: ",") + "]"
    case .object(let object): "{" + object.keys.sorted().map { "\($0):\(dump(object[$0] ?? .null))" }.joined(separator: ",") + "}"
    }
}

/// `JSONValue.decode` as text: the dump, or `error: <message>`.
func decodeDump(_ bytes: [UInt8]) -> String {
    do {
        return dump(try JSONValue.decode(bytes, as: "doc"))
    } catch {
        return "error: \(error.message)"
    }
}

func decodeDump(_ text: String) -> String { decodeDump(Array(text.utf8)) }

/// A small seeded generator, so generated test inputs are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
