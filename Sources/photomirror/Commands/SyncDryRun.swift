import Foundation
import PhotoMirror

/// `sync --dry-run`: what a sync would download, store and evict, said without writing anything.
struct SyncDryRun {
    let arguments: Arguments
    let options: SyncOptions
    let feedURLs: [String]

    func run(root: String, store: String?, started: Date) async throws(UsageError) -> ExitCode {
        var previewer = SyncPreviewer(cacheRoot: root, options: options)
        // The store config.json names, or --store: read, never recorded.
        if let store {
            do {
                previewer.store = try StoreChoice(parsing: store, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw UsageError("--store: \(error.description)")
            }
        }
        let preview: SyncPreviewer.Preview
        do {
            preview = try await previewer.run(feedURLs: feedURLs)
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        if arguments.has(.json) { Output.out(JSONDocument.encode(SyncDocument(preview, cache: root, started: started))) }
        Output.err(Self.text(preview, quiet: arguments.has(.quiet), elapsed: Date().timeIntervalSince(started)))
        return preview.feeds.contains { $0.error != nil } ? .feedFailed : .ok
    }

    static func text(_ preview: SyncPreviewer.Preview, quiet: Bool, elapsed: Double) -> String {
        var text = ""
        for feed in preview.feeds { if let error = feed.error { text += "feed failed: \(error)\n" } }
        guard !quiet else { return text }
        for feed in preview.feeds where feed.error == nil {
            let title = feed.title.trimmingCharacters(in: .whitespaces).isEmpty ? feed.url : feed.title
            text += "feed \"\(title)\": \(counted(feed.items, "item")); would download \(feed.toDownload.count), "
                + "\(feed.cached) already cached\n"
        }
        for url in preview.downloads { text += "would download: \(url)\n" }
        let sizes = preview.sizes.map(\.description).joined(separator: ", ")
        text += "dry run: would download \(counted(preview.downloads.count, "image")) and store \(counted(preview.downloads.count, "original")) "
            + "and \(counted(preview.downloads.count * preview.sizes.count, "thumbnail")) (\(sizes))"
        if let prune = preview.prune {
            text += prune.originalsEvicted + prune.thumbnailsEvicted == 0 ? "; would evict nothing now"
                : "; a prune now would evict \(counted(prune.originalsEvicted, "original")) and the thumbnails of "
                    + "\(counted(prune.thumbnailsEvicted, "image")) (\(Output.bytes(prune.bytesFreed)))"
        }
        text += "; wrote nothing, in \(String(format: "%.1f", elapsed)) s\n"
        return text
    }
}
