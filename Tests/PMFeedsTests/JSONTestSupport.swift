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

/// `count` seeded random edits (one to three inserted, replaced or deleted bytes) of `seeds`,
/// the same on every run. The pool of bytes has no `.`, `e` or `E`: see the differential tests.
func mutatedDocuments(of seeds: [String], count: Int, seed: UInt64) -> [[UInt8]] {
    let pool = Array(#"{}[]",:\ '/0129-+ntfu"#.utf8) + [0x09, 0x0A, 0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
    var random = SplitMix64(state: seed)
    return (0..<count).map { _ in
        var bytes = Array(seeds.randomElement(using: &random)!.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes.insert(pool.randomElement(using: &random)!, at: at)
            case 1: bytes[at] = pool.randomElement(using: &random)!
            default: if bytes.count > 1 { bytes.remove(at: at) }
            }
        }
        return bytes
    }
}
