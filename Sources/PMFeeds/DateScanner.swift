/// Cursor over a date's bytes; each grammar returns seconds since 1970 or nil.
struct DateScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `YYYY-MM-DD[(T| )hh:mm[:ss[.fff]]][Z|±hh[:]mm|±hh]`
    mutating func rfc3339(defaultOffset: Int) -> Double? {
        guard let year = number(digits: 4), skip("-"), let month = number(digits: 2), skip("-"),
              let day = number(digits: 2) else { return nil }
        var hour = 0, minute = 0, second = 0.0
        if skip("T") || skip("t") || skip(" ") {
            guard let h = number(digits: 2), skip(":"), let m = number(digits: 2) else { return nil }
            hour = h
            minute = m
            if skip(":") {
                guard let s = number(digits: 2) else { return nil }
                second = Double(s) + fraction()
            }
        }
        var offset = defaultOffset
        if skip("Z") || skip("z") {
            offset = 0
        } else if let signed = signedOffset() {
            offset = signed
        }
        skipSpaces()
        guard index == bytes.count else { return nil }
        return FeedDate.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                     second: second, offset: offset)
    }

    /// `[Www,] D[D] Mon YY[YY] hh:mm[:ss] [zone]`
    mutating func rfc822() -> Double? {
        if let letter = peek(at: 0), isLetter(letter) {
            _ = word()
            _ = skip(",")
            skipSpaces()
        }
        guard let day = number(minDigits: 1, maxDigits: 2) else { return nil }
        skipSpaces()
        guard let monthName = word(), let month = Self.month(monthName) else { return nil }
        skipSpaces()
        guard let rawYear = number(minDigits: 2, maxDigits: 4) else { return nil }
        let year = rawYear >= 100 ? rawYear : (rawYear >= 50 ? 1900 + rawYear : 2000 + rawYear)
        skipSpaces()
        guard let hour = number(minDigits: 1, maxDigits: 2), skip(":"), let minute = number(digits: 2) else { return nil }
        var second = 0.0
        if skip(":") {
            guard let s = number(digits: 2) else { return nil }
            second = Double(s)
        }
        skipSpaces()
        var offset = 0
        if let signed = signedOffset() {
            offset = signed
        } else if let zone = word() {
            guard let named = Self.zoneOffset(zone) else { return nil }
            offset = named
        }
        skipSpaces()
        guard index == bytes.count else { return nil }
        return FeedDate.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                     second: second, offset: offset)
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    func peek(at offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func peekIsDigit(count: Int) -> Bool { (0..<count).allSatisfy { peek(at: $0).map(isDigit) ?? false } }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard peek(at: 0) == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func number(digits: Int) -> Int? { number(minDigits: digits, maxDigits: digits) }

    private mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
        var value = 0, count = 0
        while count < maxDigits, let byte = peek(at: 0), isDigit(byte) {
            value = value * 10 + Int(byte - 0x30)
            index += 1
            count += 1
        }
        return count >= minDigits ? value : nil
    }

    private mutating func fraction() -> Double {
        guard skip(".") || skip(",") else { return 0 }
        var value = 0.0, scale = 0.1
        while let byte = peek(at: 0), isDigit(byte) {
            value += Double(byte - 0x30) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    /// `+hh:mm`, `+hhmm` or `+hh`, as seconds east of UTC.
    private mutating func signedOffset() -> Int? {
        guard let sign = peek(at: 0), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = number(digits: 2), hours <= 23 else { return nil }
        _ = skip(":")
        let minutes = number(digits: 2) ?? 0
        guard minutes <= 59 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    private mutating func word() -> String? {
        let start = index
        while let byte = peek(at: 0), isLetter(byte) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Accepts `Sep` and `September` alike.
    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: String(name.lowercased().prefix(3))).map { $0 + 1 }
    }

    /// RFC 822's named zones. Military single letters are treated as UTC, as RFC 2822 §4.3 advises
    /// (their sign was specified backwards and senders disagree).
    private static func zoneOffset(_ zone: String) -> Int? {
        let hours: Int? = switch zone.uppercased() {
        case "GMT", "UT", "UTC", "Z": 0
        case "EST": -5
        case "EDT": -4
        case "CST": -6
        case "CDT": -5
        case "MST": -7
        case "MDT": -6
        case "PST": -8
        case "PDT": -7
        case let other where other.count == 1 && other != "J": 0
        default: nil
        }
        return hours.map { $0 * 3_600 }
    }
}
