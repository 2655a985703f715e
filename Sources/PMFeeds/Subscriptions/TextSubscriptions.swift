import Foundation

/// A text subscription list: one URL a line; blank lines and `#` comments are skipped.
enum TextSubscriptions {
    static func read(_ bytes: [UInt8]) throws(SubscriptionListError) -> [Subscription] {
        // "\r\n" is one Character, so lines are split on newline Characters rather than on "\n".
        // Decoded here rather than by XMLCharset, which trims leading blank lines and would shift
        // the line numbers errors name. Invalid UTF-8 is repaired, then refused as not a URL.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let text = String(decoding: body, as: UTF8.self)
        var subscriptions: [Subscription] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = Substring(rawLine)
            // A comment may follow a URL after blanks; a `#` inside a URL is its fragment.
            if let comment = line.firstRange(of: " #") ?? line.firstRange(of: "\t#") { line = line[..<comment.lowerBound] }
            let url = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !url.isEmpty, !url.hasPrefix("#") else { continue }
            guard SubscriptionList.isFeedURL(url), !url.contains(where: \.isWhitespace) else {
                throw SubscriptionListError(.line(index + 1), "\"\(printable(url))\" is not an http, https or file URL")
            }
            subscriptions.append(Subscription(url: url))
        }
        return subscriptions
    }

    /// Enough of a bad line to recognise it, without echoing a whole binary file to the terminal.
    private static func printable(_ text: String) -> String {
        let shown = String(text.unicodeScalars.prefix(80).map { $0.properties.isWhitespace || $0.value < 0x20 ? " " : Character($0) })
        return text.unicodeScalars.count > 80 ? shown + "…" : shown
    }
}
