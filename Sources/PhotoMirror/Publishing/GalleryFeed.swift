import Foundation
import PMCache

/// A feed as the gallery pages see it: its row, its items and the files the index has for them.
struct GalleryFeed {
    var record: FeedRecord
    var items: [ItemRecord]
    var paths: [String: StoredPaths]

    var displayTitle: String {
        let title = record.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? record.url : title
    }

    /// "12 items · 10 mirrored · 2 failed · synced 2026-11-29 13:00 UTC", escaped.
    var summary: String {
        var parts = ["\(items.count) item\(items.count == 1 ? "" : "s")"]
        let ok = items.count { $0.status == "ok" }
        let failed = items.count { $0.status == "failed" }
        let noImage = items.count { $0.status == "no-image" }
        parts.append("\(ok) mirrored")
        if failed > 0 { parts.append("\(failed) failed") }
        if noImage > 0 { parts.append("\(noImage) without image") }
        let evicted = items.count { $0.status.hasPrefix("evicted") }
        if evicted > 0 { parts.append("\(evicted) evicted") }
        let stamp = W3CTimestamp.format(record.lastSync)
        let readable = stamp.prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
        parts.append("synced <time datetime=\"\(stamp)\">\(HTML.escape(readable))</time>")
        return parts.joined(separator: " · ")
    }
}
