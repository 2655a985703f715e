import Foundation
import PhotoMirror

/// `sync --json` (docs/json.md): the envelope, totals, every feed, every failed image, and the
/// prune that followed; a dry run's plan; or why the sync could not run. Every key is always
/// present, `null` where it has no value.
struct SyncDocument: Encodable {
    struct Totals: Encodable {
        var feeds = 0, feedsFailed = 0, feedsUnchanged = 0, items = 0, imagesOk = 0, imagesFailed = 0, imagesSkipped = 0
        var noImage = 0, downloaded = 0, reused = 0, bytesDownloaded = 0

        enum CodingKeys: String, CodingKey {
            case feeds, items, downloaded, reused
            case feedsFailed = "feeds_failed", feedsUnchanged = "feeds_unchanged", imagesOk = "images_ok"
            case imagesFailed = "images_failed", imagesSkipped = "images_skipped", noImage = "no_image", bytesDownloaded = "bytes_downloaded"
        }
    }

    struct Feed: Encodable {
        var url: String
        var title: String
        var kind: String?
        var manifest: String?
        var items = 0, ok = 0, failed = 0, skipped = 0, noImage = 0, downloaded = 0, reused = 0, moreImagesFailed = 0
        var error: String?
        var warnings: [String] = []
        var unchanged = false
        var gone = false
        /// ISO 8601.
        var pollAfter: String?

        enum CodingKeys: String, CodingKey {
            case url, title, kind, manifest, items, ok, failed, skipped, downloaded, reused, error, warnings, unchanged, gone
            case noImage = "no_image", moreImagesFailed = "more_images_failed", pollAfter = "poll_after"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(title, forKey: .title)
            try container.encode(kind, forKey: .kind)
            try container.encode(manifest, forKey: .manifest)
            try container.encode(items, forKey: .items)
            try container.encode(ok, forKey: .ok)
            try container.encode(failed, forKey: .failed)
            try container.encode(skipped, forKey: .skipped)
            try container.encode(noImage, forKey: .noImage)
            try container.encode(downloaded, forKey: .downloaded)
            try container.encode(reused, forKey: .reused)
            try container.encode(moreImagesFailed, forKey: .moreImagesFailed)
            try container.encode(error, forKey: .error)
            try container.encode(warnings, forKey: .warnings)
            try container.encode(unchanged, forKey: .unchanged)
            try container.encode(gone, forKey: .gone)
            try container.encode(pollAfter, forKey: .pollAfter)
        }
    }

    /// One image that failed.
    struct Failure: Encodable {
        var feedURL: String
        var itemID: String
        var url: String?
        /// The HTTP status the reason names, if any.
        var status: Int?
        var reason: String

        enum CodingKeys: String, CodingKey {
            case url, status, reason
            case feedURL = "feed_url", itemID = "item_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feedURL, forKey: .feedURL)
            try container.encode(itemID, forKey: .itemID)
            try container.encode(url, forKey: .url)
            try container.encode(status, forKey: .status)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// What a dry run would do.
    struct Plan: Encodable {
        var downloads: [String]
        var originals: Int
        var thumbnails: Int
        var sizes: [String]
        var prune: PruneFields?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(downloads, forKey: .downloads)
            try container.encode(originals, forKey: .originals)
            try container.encode(thumbnails, forKey: .thumbnails)
            try container.encode(sizes, forKey: .sizes)
            try container.encode(prune, forKey: .prune)
        }

        enum CodingKeys: String, CodingKey { case downloads, originals, thumbnails, sizes, prune }
    }

    struct Error: Encodable {
        let message: String
        /// `cache` (the cache could not be opened, locked or written) or `interrupted`.
        let kind: String
        let exitCode: Int32

        enum CodingKeys: String, CodingKey {
            case message, kind
            case exitCode = "exit_code"
        }
    }

    var envelope: JSONEnvelope
    var cache: String
    var dryRun = false
    var gallery: String?
    var totals = Totals()
    var feeds: [Feed] = []
    var failures: [Failure] = []
    var plan: Plan?
    var prune: PruneFields?
    var error: Error?

    enum CodingKeys: String, CodingKey {
        case cache, gallery, totals, feeds, failures, plan, prune, error
        case dryRun = "dry_run", bytesDownloaded = "bytes_downloaded"
    }

    func encode(to encoder: any Encoder) throws {
        try envelope.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cache, forKey: .cache)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(gallery, forKey: .gallery)
        try container.encode(totals, forKey: .totals)
        // Kept at the top for the scripts that read it there before schema 1.
        try container.encode(totals.bytesDownloaded, forKey: .bytesDownloaded)
        try container.encode(feeds, forKey: .feeds)
        try container.encode(failures, forKey: .failures)
        try container.encode(plan, forKey: .plan)
        try container.encode(prune, forKey: .prune)
        try container.encode(error, forKey: .error)
    }
}

extension SyncDocument {
    init(_ report: SyncReport, prune: PruneReport?, cache: String, started: Date) {
        self.init(envelope: JSONEnvelope(command: "sync", started: started), cache: cache)
        gallery = report.galleryPath
        feeds = report.feeds.map { feed in
            Feed(url: feed.url, title: feed.title, kind: feed.kind, manifest: feed.manifest, items: feed.items, ok: feed.ok,
                 failed: feed.failed, skipped: feed.skipped, noImage: feed.noImage, downloaded: feed.downloaded, reused: feed.reused,
                 moreImagesFailed: feed.moreImagesFailed, error: feed.error, warnings: feed.warnings,
                 unchanged: feed.unchanged, gone: feed.gone, pollAfter: JSONTime.string(seconds: feed.pollAfter))
        }
        failures = report.failures.map {
            Failure(feedURL: $0.feedURL, itemID: $0.itemID, url: $0.mediaURL, status: Self.httpStatus(in: $0.reason), reason: $0.reason)
        }
        totals = Totals(
            feeds: feeds.count, feedsFailed: feeds.filter { $0.error != nil }.count,
            feedsUnchanged: feeds.filter(\.unchanged).count, items: feeds.reduce(0) { $0 + $1.items },
            imagesOk: feeds.reduce(0) { $0 + $1.ok }, imagesFailed: feeds.reduce(0) { $0 + $1.failed + $1.moreImagesFailed },
            imagesSkipped: feeds.reduce(0) { $0 + $1.skipped },
            noImage: feeds.reduce(0) { $0 + $1.noImage }, downloaded: feeds.reduce(0) { $0 + $1.downloaded },
            reused: feeds.reduce(0) { $0 + $1.reused }, bytesDownloaded: report.bytesDownloaded)
        self.prune = prune.map(PruneFields.init)
    }

    init(_ preview: SyncPreviewer.Preview, cache: String, started: Date) {
        self.init(envelope: JSONEnvelope(command: "sync", started: started), cache: cache, dryRun: true)
        feeds = preview.feeds.map { feed in
            Feed(url: feed.url, title: feed.title, kind: feed.kind, manifest: nil, items: feed.items,
                 downloaded: feed.toDownload.count, reused: feed.cached, error: feed.error)
        }
        totals = Totals(feeds: feeds.count, feedsFailed: feeds.filter { $0.error != nil }.count,
                        items: feeds.reduce(0) { $0 + $1.items }, downloaded: preview.downloads.count,
                        reused: feeds.reduce(0) { $0 + $1.reused })
        plan = Plan(downloads: preview.downloads, originals: preview.downloads.count,
                    thumbnails: preview.downloads.count * preview.sizes.count, sizes: preview.sizes.map(\.description),
                    prune: preview.prune.map(PruneFields.init))
    }

    init(failure: CacheCommandError, exitCode: ExitCode, cache: String, started: Date) {
        self.init(envelope: JSONEnvelope(command: "sync", started: started), cache: cache)
        error = Error(message: failure.description, kind: failure.kind == .interrupted ? "interrupted" : "cache",
                      exitCode: exitCode.rawValue)
    }

    /// `HTTP 404` in a failure's reason.
    static func httpStatus(in reason: String) -> Int? {
        guard let range = reason.range(of: "HTTP ") else { return nil }
        let digits = reason[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.count == 3 ? Int(digits) : nil
    }
}
