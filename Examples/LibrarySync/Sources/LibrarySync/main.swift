import Foundation
import PhotoMirror

// Syncs one feed into a cache through the library, then uses what it stored:
//   LibrarySync FEED_URL CACHE_FOLDER [LOCAL_IMAGE]
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: LibrarySync FEED_URL CACHE_FOLDER [LOCAL_IMAGE]\n".utf8))
    exit(2)
}
let feed = arguments[1]

var configuration = MirrorCache.Configuration()
configuration.sizes = [ThumbnailSize(width: 40, height: 40), ThumbnailSize(width: 80, height: 80)]
configuration.userAgent = "LibrarySync/1.0 (photomirror library example)"
let cache = MirrorCache(folder: URL(filePath: arguments[2]), configuration: configuration)

do {
    var finished: SyncReport?
    for try await event in cache.sync([feed]) {
        switch event {
        case .progress(let progress):
            print("\r\(progress.done)/\(progress.total) images", terminator: "")
        case .pruned(let prune):
            print("\npruned to \(prune.usageAfter) bytes")
        case .finished(let report):
            finished = report
        }
    }
    guard let synced = finished?.feeds.first else { exit(3) }
    print("\n\(synced.title): \(synced.ok) of \(synced.items) items ok, \(synced.downloaded) downloaded")

    // Every item of the feed, with the files the cache holds for its image.
    for item in try await cache.items(inFeed: feed) {
        let sizes = item.image?.thumbnails.keys.map(\.description).sorted().joined(separator: ", ") ?? ""
        print("\(item.title) [\(item.status)]: \(item.image?.original?.path ?? "no original") [\(sizes)]")
    }

    // The same image, found again by the URL the feed named it by and by its hash.
    if let url = try await cache.items(inFeed: feed).first?.imageURL, let image = try await cache.image(for: url),
       let again = try await cache.image(sha256: image.sha256) {
        print("\(url) is \(image.sha256), \(again == image ? "found again by its hash" : "NOT FOUND by its hash")")
    }

    let verify = try await cache.verify()
    print("verify: \(verify.isHealthy ? "healthy" : "DAMAGED: \(verify.damage.prefix(3))")")

    if arguments.count > 3 {
        let thumbnails = try await LocalThumbnails.thumbnails(of: URL(filePath: arguments[3]),
                                                            sizes: [ThumbnailSize(width: 40, height: 40)])
        print("\(arguments[3]): a \(thumbnails.values.first?.count ?? 0)-byte 40x40 PNG in memory")
    }
    exit(verify.isHealthy && synced.failed == 0 ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("LibrarySync: \(error)\n".utf8))
    exit(3)
}
