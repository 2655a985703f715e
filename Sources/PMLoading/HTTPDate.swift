import Foundation

/// HTTP dates as servers send them: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110),
/// plus the obsolete RFC 850 and asctime forms recipients must accept.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    public static func parse(_ text: String) -> Date? {
        let words = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: { $0 == " " || $0 == "-" })
            .map(String.init)
        // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT; RFC 850: Sunday 06 Nov 94 08:49:37 GMT
        if words.count == 6, let day = Int(words[1]), let month = month(words[2]), var year = Int(words[3]),
           words[5].uppercased() == "GMT" {
            if year < 100 { year += year < 70 ? 2000 : 1900 }
            return date(year: year, month: month, day: day, time: words[4])
        }
        // asctime: Sun Nov  6 08:49:37 1994
        if words.count == 5, let month = month(words[1]), let day = Int(words[2]), let year = Int(words[4]) {
            return date(year: year, month: month, day: day, time: words[3])
        }
        return nil
    }

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (parts[0], parts[1], parts[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
    }
}
