/// A size limit as people write it: `500MB`, `500M`, `1.5GB`, `2GiB`, `750000000`, `800KB`, `123B`.
///
/// Decimal units (`K`/`KB`, `M`/`MB`, `G`/`GB`, `T`/`TB`) are powers of 1000, as disk vendors and
/// `du --si` count; binary units (`KiB`, `MiB`, `GiB`, `TiB`) are powers of 1024, as `du -h`
/// counts. Units are case-insensitive; a bare number is bytes. Fractions are exact (parsed as
/// decimal digits, not a Double), rounded down to whole bytes.
public enum ByteSize {
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "\"\(text)\" is not a size: \(reason) (write e.g. 500MB, 1.5GB, 2GiB or 750000000)"
        }
    }

    static let units: [String: Int] = [
        "": 1, "b": 1,
        "k": 1_000, "kb": 1_000, "m": 1_000_000, "mb": 1_000_000,
        "g": 1_000_000_000, "gb": 1_000_000_000, "t": 1_000_000_000_000, "tb": 1_000_000_000_000,
        "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
    ]

    /// The number of bytes `text` names; more than zero.
    public static func parse(_ text: String) throws(ParseError) -> Int {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw fail("it is empty") }
        guard !trimmed.hasPrefix("-") else { throw fail("a size cannot be negative") }
        let number = DecimalNumber(prefixOf: trimmed)
        guard number.digitCount > 0 else { throw fail("it does not start with a number") }
        let unit = trimmed.dropFirst(number.length).trimmingWhitespace().lowercased()
        guard let multiplier = units[unit] else { throw fail("unknown unit \"\(unit)\"") }
        guard let bytes = number.times(multiplier) else { throw fail("it is too large") }
        guard bytes > 0 else { throw fail("it must be more than 0 bytes") }
        return bytes
    }
}

/// The leading `123` or `1.25` of a string, kept as exact digits.
struct DecimalNumber {
    private(set) var whole: [Int] = []
    private(set) var fraction: [Int] = []
    /// Characters consumed, the dot included.
    private(set) var length = 0

    var digitCount: Int { whole.count + fraction.count }

    init<S: StringProtocol>(prefixOf text: S) {
        var seenDot = false
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                if seenDot { fraction.append(digit) } else { whole.append(digit) }
            } else if character == ".", !seenDot {
                seenDot = true
            } else {
                break
            }
            length += 1
        }
    }

    /// `self × multiplier`, rounded down; nil on overflow. Fraction digits past the twelfth are
    /// ignored: they change no result by a whole byte.
    func times(_ multiplier: Int) -> Int? {
        var scaled = 0
        var divisor = 1
        for digit in whole + fraction.prefix(12) {
            let (shifted, overflow) = scaled.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            scaled = shifted + digit
        }
        for _ in fraction.prefix(12) { divisor *= 10 }
        let (product, overflow) = scaled.multipliedReportingOverflow(by: multiplier)
        if !overflow { return product / divisor }
        // Too big to multiply first: whole part exactly, the fraction's share in floating point.
        let (wholeBytes, stillOverflows) = (scaled / divisor).multipliedReportingOverflow(by: multiplier)
        let fractionBytes = Int(Double(scaled % divisor) / Double(divisor) * Double(multiplier))
        let (total, sumOverflows) = wholeBytes.addingReportingOverflow(fractionBytes)
        return stillOverflows || sumOverflows ? nil : total
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
