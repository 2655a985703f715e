import Foundation
import PMCache
import PMFeeds
import PMImaging
import PMLoading
import PMSupport

/// A sync that could not run at all (the cache can't be opened or locked).
public struct SyncError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// `photomirror sync`: fetch feeds, mirror every media URL once, publish manifests and gallery.
public struct SyncEngine: Sendable {
    public let cacheRoot: String
    public let options: SyncOptions
    public let progress: (@Sendable (SyncProgress) -> Void)?

    public init(cacheRoot: String, options: SyncOptions, progress: (@Sendable (SyncProgress) -> Void)? = nil) {
        self.cacheRoot = cacheRoot
        self.options = options
        self.progress = progress
    }

    public func run(feedURLs: [String]) async throws(SyncError) -> SyncReport {
        let cache = try OpenCache(root: cacheRoot, lockWait: options.lockWait)
        let loader = CurlLoader(maxConnections: options.jobs)
        let pool = BlockingPool(threads: options.codecThreads, name: "photomirror.codec")
        defer {
            loader.shutdown()
            pool.shutdown()
        }
        var reports: [FeedReport] = []
        var fetched: [(url: String, feed: FetchedFeed)] = []
        let fetcher = FeedFetcher(loader: loader, options: options)
        for url in feedURLs {
            do {
                fetched.append((url, try await fetcher.fetch(url)))
            } catch {
                var report = FeedReport(url: url, title: "")
                report.error = error.description
                reports.append(report)
            }
        }
        let pipeline = MediaPipeline(loader: loader, index: cache.index, store: cache.store, pool: pool, options: options)
        let outcomes = await mirrorAll(uniqueMediaURLs(fetched.map(\.feed)), pipeline: pipeline)
        let publisher = Publisher(cache: cache, sizes: options.sizes)
        var failures: [ItemFailure] = []
        for (url, feed) in fetched {
            do {
                let published = try await publisher.publishFeed(url: url, feed: feed, outcomes: outcomes.results)
                reports.append(published.report)
                failures += published.failures
            } catch {
                var report = FeedReport(url: url, title: feed.parsed.title)
                report.error = "cannot record the feed in the cache: \(error)"
                reports.append(report)
            }
        }
        do {
            try await publisher.publishGallery()
        } catch {
            throw SyncError(description: "cannot write the gallery: \(error)")
        }
        return SyncReport(feeds: reports.sorted { feedURLs.firstIndex(of: $0.url) ?? 0 < feedURLs.firstIndex(of: $1.url) ?? 0 },
                          failures: failures, galleryPath: cache.layout.galleryPath,
                          bytesDownloaded: outcomes.bytes)
    }

    /// Every media URL once, in feed order: the same image in two feeds is fetched once.
    private func uniqueMediaURLs(_ feeds: [FetchedFeed]) -> [String] {
        var seen = Set<String>()
        return feeds.flatMap { $0.parsed.items.compactMap(\.mediaURL) }.filter { seen.insert($0).inserted }
    }

    /// Runs the pipeline over `urls` with at most `options.jobs` in flight.
    private func mirrorAll(_ urls: [String], pipeline: MediaPipeline) async -> (results: [String: MediaOutcome], bytes: Int) {
        var results: [String: MediaOutcome] = [:]
        var counts = SyncProgress()
        counts.total = urls.count
        progress?(counts)
        await withTaskGroup(of: (String, MediaOutcome).self) { group in
            var pending = urls.makeIterator()
            for _ in 0..<max(1, options.jobs) {
                guard let url = pending.next() else { break }
                group.addTask { (url, await pipeline.mirror(url)) }
            }
            while let (url, outcome) = await group.next() {
                results[url] = outcome
                counts.record(outcome)
                progress?(counts)
                if let next = pending.next() {
                    group.addTask { (next, await pipeline.mirror(next)) }
                }
            }
        }
        return (results, counts.bytes)
    }
}

extension SyncProgress {
    mutating func record(_ outcome: MediaOutcome) {
        done += 1
        switch outcome {
        case .stored(_, let downloaded, let bytes):
            if downloaded { self.downloaded += 1 } else { reused += 1 }
            self.bytes += bytes
        case .failed:
            failed += 1
        }
    }
}
