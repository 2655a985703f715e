import Foundation
import PMSupport

/// Keeps secrets out of messages and published files: a URL's user info and secret query
/// parameters (`URLRedaction`).
enum Redaction {
    static func url(_ url: URL) -> String {
        URLRedaction.redacted(url.absoluteString)
    }

    static func url(_ url: String) -> String {
        URLRedaction.redacted(url)
    }
}
