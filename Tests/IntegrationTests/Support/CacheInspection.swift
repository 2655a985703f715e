import Foundation
import XCTest

/// Reading what a sync left: its `--json` summary, a feed's manifest, the cache's bytes.
enum CacheInspection {
    /// The feeds of a `sync --json` summary.
    static func feeds(fromSummary stdout: String) throws -> [[String: Any]] {
        let summary = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(summary?["feeds"] as? [[String: Any]], "no feeds in: \(stdout)")
    }

    static func firstFeed(fromSummary stdout: String) throws -> [String: Any] {
        try XCTUnwrap(try feeds(fromSummary: stdout).first)
    }

    /// The items of the manifest a summary's feed names.
    static func manifestItems(cache: URL, feed: [String: Any]) throws -> [[String: Any]] {
        let path = try XCTUnwrap(feed["manifest"] as? String)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent(path)))
        return try XCTUnwrap((manifest as? [String: Any])?["items"] as? [[String: Any]])
    }

    /// Whether any file in the cache contains `text` (secrets, foreign files).
    static func cache(_ cache: URL, contains text: String) -> Bool {
        let walker = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url), data.range(of: Data(text.utf8)) != nil { return true }
        }
        return false
    }
}
