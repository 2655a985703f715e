import Foundation
import PhotoMirror

/// The words and JSON a finished sync prints. No control characters unless colour is asked
/// for: this also goes to logs.
enum SyncSummary {
    enum Verbosity {
        case quiet, normal, verbose
    }

    /// Failures always (they are errors, even with --quiet); then, unless quiet, a line per
    /// feed, a total and where the gallery is. Verbose lists every item from the manifests.
    static func text(_ report: SyncReport, verbosity: Verbosity, cacheRoot: String, colour: Bool = false,
                     elapsed: Double? = nil) -> String {
        var text = ""
        if verbosity == .verbose {
            for feed in report.feeds { text += itemLines(feed, cacheRoot: cacheRoot, colour: colour) }
        } else {
            for failure in report.failures {
                let media = failure.mediaURL.map { " \($0)" } ?? ""
                text += Output.styled("failed:", .red, when: colour) + " item \(failure.itemID)\(media): \(failure.reason)\n"
            }
        }
        guard verbosity != .quiet else { return text }
        for feed in report.feeds where feed.error == nil {
            for warning in feed.warnings { text += Output.styled("warning:", .yellow, when: colour) + " \(feed.url): \(warning)\n" }
        }
        for image in report.imageWarnings {
            text += Output.styled("warning:", .yellow, when: colour) + " \(image.mediaURL): \(image.warning)\n"
        }
        for feed in report.feeds where feed.error == nil {
            let title = feed.title.trimmingCharacters(in: .whitespaces).isEmpty ? feed.url : feed.title
            // A 304: its items are the stored ones, republished (retrying any that failed).
            let state = feed.unchanged ? "unchanged (304), " : ""
            text += "feed \"\(title)\": \(state)\(counted(feed.items, "item")), \(feed.ok) ok, \(feed.failed) failed"
            if feed.skipped > 0 { text += ", \(feed.skipped) skipped" }
            if feed.noImage > 0 { text += ", \(feed.noImage) without image" }
            if feed.moreImagesFailed > 0 { text += ", \(counted(feed.moreImagesFailed, "more image")) failed" }
            text += "; \(feed.downloaded) downloaded, \(feed.reused) already cached\n"
        }
        let synced = report.feeds.filter { $0.error == nil }
        text += "synced \(synced.count) of \(report.feeds.count) \(report.feeds.count == 1 ? "feed" : "feeds")"
        let unchanged = synced.filter(\.unchanged).count
        text += unchanged > 0 ? " (\(unchanged) unchanged): " : ": "
        text += "\(counted(synced.reduce(0) { $0 + $1.ok }, "image")) ok, \(synced.reduce(0) { $0 + $1.failed }) failed, "
        text += "\(Output.bytes(report.bytesDownloaded)) downloaded"
        if let elapsed { text += " in \(String(format: "%.1f", elapsed)) s" }
        text += "\n"
        let gallery = report.galleryPath.hasPrefix("/") ? URL(fileURLWithPath: report.galleryPath).absoluteString : report.galleryPath
        text += "gallery: \(gallery)\n"
        return text
    }

    /// One line per item of a feed, as its manifest records it.
    private static func itemLines(_ feed: FeedReport, cacheRoot: String, colour: Bool) -> String {
        guard let path = feed.manifest, !path.isEmpty,
              let data = FileManager.default.contents(atPath: cacheRoot + "/" + path),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return "" }
        return manifest.items.map { item in
            let status = item.status == "ok" ? "ok" : Output.styled(item.status, .red, when: colour && item.status == "failed")
            var line = "item \(item.id): \(status)"
            if let media = item.mediaURL { line += " \(media)" }
            if let error = item.error { line += ": \(error)" } else if let thumbnail = item.thumbnail { line += " → \(thumbnail)" }
            return line + "\n"
        }.joined()
    }
}
