/// Feed strings are written by strangers: everything that reaches the page goes through here.
enum HTML {
    /// Escapes text for element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// An escaped href for a link from a feed, or nil unless it is absolute http(s):
    /// `javascript:`, `data:` and the like never become links.
    static func safeExternalLink(_ url: String?) -> String? {
        guard let url = url?.trimmingCharacters(in: .whitespaces), !url.isEmpty else { return nil }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        return escape(url)
    }

    /// A cache-relative path as an href: each segment percent-encoded, never absolute.
    static func relativeLink(_ path: String) -> String {
        path.split(separator: "/").map { segment in
            segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"]))
                ?? String(segment)
        }.joined(separator: "/")
    }
}

import Foundation
