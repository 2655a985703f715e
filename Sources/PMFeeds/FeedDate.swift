import Foundation

/// The one date parser every feed kind shares. Hand-written over UTF-8 bytes: no formatter is
/// created per call, nothing is shared or mutable, and it accepts the variants real feeds send:
///
/// - RFC 3339 / W3C: `2017-01-21T16:12:09Z`, `…12.345Z`, `-08:00`, Marvel's colon-less `-0400`,
///   a space instead of `T`, and no zone at all (then `assumingOffset` applies).
/// - RFC 822/1123 (RSS): `Sat, 07 Sep 2002 00:00:01 GMT`, `+0000`, US zones (`EST`, `PDT`, …),
///   optional weekday and seconds, 2-digit years.
///
/// The Unix epoch itself (`1969-12-31T19:00:00-0500` in Marvel's data) is returned as nil:
/// APIs emit it for "never set", and no photo was published at that instant.
public enum FeedDate {
    public static func parse(_ text: String, assumingOffset: Int = 0) -> Date? {
        var scanner = DateScanner(Array(text.utf8))
        scanner.skipSpaces()
        let parsed = scanner.peekIsDigit(count: 4) && scanner.peek(at: 4) == UInt8(ascii: "-")
            ? scanner.rfc3339(defaultOffset: assumingOffset)
            : scanner.rfc822()
        guard let seconds = parsed, seconds != 0 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Seconds since 1970 for a proleptic Gregorian civil date-time at UTC offset `offset` seconds,
    /// or nil when a field is out of range (Feb 30, hour 25, …).
    static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double,
                             offset: Int) -> Double? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 61 else { return nil }
        // Days from civil (H. Hinnant): eras of 400 years make the leap rule arithmetic.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // A leap second (`:60`) is folded onto the next second rather than rejected.
        return Double(days * 86_400 + hour * 3_600 + minute * 60 - offset) + second
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
