import Foundation
import PhotoMirror

/// The words and JSON a finished sync prints. No control characters: this also goes to logs.
enum SyncSummary {
    static func json(_ report: SyncReport) -> String {
        struct Summary: Encodable {
            let feeds: [FeedReport]
            let gallery: String
            let bytesDownloaded: Int
            enum CodingKeys: String, CodingKey {
                case feeds, gallery
                case bytesDownloaded = "bytes_downloaded"
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let summary = Summary(feeds: report.feeds, gallery: report.galleryPath, bytesDownloaded: report.bytesDownloaded)
        let data = (try? encoder.encode(summary)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func text(_ report: SyncReport, verbose: Bool) -> String {
        var text = ""
        for failure in report.failures {
            let media = failure.mediaURL.map { " \($0)" } ?? ""
            text += "failed: item \(failure.itemID)\(media): \(failure.reason)\n"
        }
        for feed in report.feeds where feed.error == nil {
            let title = feed.title.trimmingCharacters(in: .whitespaces).isEmpty ? feed.url : feed.title
            text += "feed \"\(title)\": \(feed.items) items, \(feed.ok) ok, \(feed.failed) failed"
            if feed.noImage > 0 { text += ", \(feed.noImage) without image" }
            text += "; \(feed.downloaded) downloaded, \(feed.reused) already cached\n"
        }
        if verbose { text += "downloaded \(Output.bytes(report.bytesDownloaded)) of images\n" }
        text += "gallery: \(URL(fileURLWithPath: report.galleryPath).absoluteString)\n"
        return text
    }
}
