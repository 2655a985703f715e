import Foundation

/// How long a response asks its reader to wait before asking again, in seconds: the largest of
/// `Cache-Control: max-age` (minus `Age`), `Expires` (against the response's `Date`, else the
/// clock) and `Retry-After`. Nil when it says nothing, or says not to keep it (`no-cache`,
/// `no-store`). Pure, so `watch`'s schedule is testable with any headers and clock.
public enum PollHint {
    public static func seconds(headers: [String: String], now: Date) -> Double? {
        var hints: [Double] = []
        let cacheControl = directives(headers["cache-control"])
        let forbidden = cacheControl["no-store"] != nil || cacheControl["no-cache"] != nil
        if !forbidden, let maxAge = cacheControl["max-age"].flatMap({ Int($0 ?? "") }), maxAge >= 0 {
            let age = headers["age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            hints.append(Double(max(0, maxAge - age)))
        } else if !forbidden, let expires = headers["expires"].flatMap(HTTPDate.parse) {
            // RFC 9111: Expires counts from the response's Date, which may differ from our clock.
            let origin = headers["date"].flatMap(HTTPDate.parse) ?? now
            hints.append(max(0, expires.timeIntervalSince(origin)))
        }
        if let retryAfter = headers["retry-after"].flatMap({ RetryPolicy.retryAfterSeconds($0, now: now) }) {
            hints.append(retryAfter)
        }
        return hints.max()
    }

    /// `max-age=600, public` → ["max-age": "600", "public": nil]; names lower-cased, quotes dropped.
    static func directives(_ header: String?) -> [String: String?] {
        var result: [String: String?] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            result[name] = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }
        return result
    }
}
