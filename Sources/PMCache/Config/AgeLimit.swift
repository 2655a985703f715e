/// A maximum age as people write it: `7d`, `12h`, `30m`, `90s`, `2w`, `1.5d`. A unit is required:
/// a bare `7` could mean days or seconds, and guessing wrong expires the whole cache.
public enum AgeLimit {
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "\"\(text)\" is not a duration: \(reason) (write e.g. 7d, 12h or 30m)"
        }
    }

    static let units: [String: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// The number of seconds `text` names; more than zero.
    public static func parse(_ text: String) throws(ParseError) -> Double {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw fail("it is empty") }
        guard !trimmed.hasPrefix("-") else { throw fail("a duration cannot be negative") }
        let number = DecimalNumber(prefixOf: trimmed)
        guard number.digitCount > 0, let value = Double(trimmed.prefix(number.length)) else {
            throw fail("it does not start with a number")
        }
        let unit = trimmed.dropFirst(number.length).trimmingWhitespace().lowercased()
        guard !unit.isEmpty else { throw fail("it needs a unit: s, m, h, d or w") }
        guard let seconds = units[unit] else { throw fail("unknown unit \"\(unit)\" (use s, m, h, d or w)") }
        guard value > 0 else { throw fail("it must be longer than 0") }
        return value * seconds
    }
}
