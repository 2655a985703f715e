import Foundation
import PMCache
import PMFeeds
import PMImaging
import PMLoading
import PMSupport

/// `photomirror sync`: fetch feeds, mirror every media URL once, publish manifests and gallery.
public struct SyncEngine: Sendable {
    public let cacheRoot: String
    public let options: SyncOptions
    public let progress: (@Sendable (SyncProgress) -> Void)?
    /// Told what the prune after the sync did, when the cache went over its size limit.
    public var pruned: (@Sendable (PruneReport) -> Void)?
    /// The transport and the storage.
    public var stages = SyncStages.standard
    /// Told of every request (`sync --verbose`).
    public var requests: (@Sendable (RequestLine) -> Void)?
    /// Opens the cache for a run: its folder, lock and index (tests: an index in memory).
    var openCache: @Sendable (_ root: String, _ lockWait: Double, _ storage: (CacheLayout) -> any CacheStorage) throws(CacheCommandError)
        -> OpenCache = { try OpenCache(root: $0, lockWait: $1, storage: $2) }

    public init(cacheRoot: String, options: SyncOptions, progress: (@Sendable (SyncProgress) -> Void)? = nil) {
        self.cacheRoot = cacheRoot
        self.options = options
        self.progress = progress
    }

    /// Memory must not grow with the feed: the index's page cache stays well below SQLite's
    /// default of 2 MB while the index is small (a 2000-image sync touches ~3 MB of index pages).
    /// A large index's random-key inserts miss a small cache on nearly every row, so past 4 MB
    /// the cache is an eighth of the index, up to 16 MB (an index of 10^5 images is ~150 MB).
    static let indexPageCache = PageCacheBound(floorKiB: 512, ceilingKiB: 16 << 10, shareDivisor: 8)

    public func run(feedURLs: [String]) async throws(CacheCommandError) -> SyncReport {
        let loading = options.loading, imaging = options.imaging
        let transport = stages.transport(loading)
        let curl: any HTTPTransport = requests.map { LoggedTransport(base: transport, log: $0) } ?? transport
        let stages = stages
        let cache: OpenCache
        do {
            cache = try openCache(cacheRoot, options.cache.lockWait) { stages.storage($0, RetryingLoader(base: curl, policy: loading.retry)) }
        } catch {
            curl.shutdown()
            throw error
        }
        let heartbeat: HeartbeatKeeper?
        do {
            heartbeat = try await StorageCheck(cache: cache).prepare()
        } catch {
            curl.shutdown()
            throw CacheCommandError(description: "cannot prepare \(cache.storage.location): \(error)")
        }
        // Ends the refreshing on every way out; a sync that ended well also removes it.
        defer { heartbeat?.stopRefreshing() }
        await cache.index.boundPageCache(Self.indexPageCache)
        let sizeLimit: Int?
        do {
            sizeLimit = try SyncBookkeeping.sizeLimit(options.cache, layout: cache.layout)
        } catch {
            curl.shutdown()
            throw error
        }
        // One gate for feeds and images: a host that asks the feed request to wait is let be by
        // its images too.
        let hosts = HostGate(limits: loading.hostLimits)
        let feedLoader = RetryingLoader(base: PoliteLoader(base: curl, gate: hosts), policy: loading.retry)
        let pool = BlockingPool(threads: imaging.codecThreads, name: "photomirror.codec")
        defer {
            curl.shutdown()
            pool.shutdown()
        }
        // A killed prune's unwritten documents: an unchanged feed (304) would leave them as they are.
        do {
            try await Republisher(cache: cache).payOwedDocuments()
        } catch {
            throw CacheCommandError("cannot rewrite the documents a killed writer left", error)
        }
        // Each fetched feed's rows go into the index as soon as it is parsed, and the parsed feed
        // goes: the mirror reads the URLs back a page at a time, and the recorder settles the rows.
        let clock = SyncClock.after(try? await cache.index.latestMediaAccess())
        // `--max`: a cache already over its limit makes room before the feeds' rows are written,
        // sparing the images of the feeds about to be synced; then it is pruned as it grows.
        var pruning: SyncPruning?
        if let sizeLimit {
            pruning = await SyncPruning(cache: cache, limit: sizeLimit, clock: clock,
                                        feedKeys: Set(feedURLs.map { CacheLayout.feedKey(url: $0) }))
            pruning?.heartbeat = heartbeat
            pruning?.garbageGrace = options.cache.garbageGrace
            await pruning?.pruneIfDue()
        }
        // Two waiting bodies per codec thread (and two more) keep the pool fed while the next
        // downloads arrive.
        let gate = DownloadGate(maxTransfers: loading.jobs, maxWaiting: 2 * max(1, imaging.codecThreads) + 2,
                                decoders: imaging.codecThreads)
        let imageLoader = RetryingLoader(base: PoliteLoader(base: GatedLoader(gate: gate, hosts: hosts, base: curl), gate: hosts),
                                         policy: loading.retry)
        var pipeline = MediaPipeline(loader: imageLoader, index: cache.index, storage: cache.storage, pool: pool,
                                     loading: loading, imaging: imaging, gate: gate)
        pipeline.clock = clock
        var reports: [FeedReport] = []
        var staged: [StagedFeed] = []
        var fetcher = FeedFetcher(loader: feedLoader, options: loading, index: cache.index)
        fetcher.defersReading = true
        let publisher = Publisher(cache: cache, sizes: imaging.sizes)
        var stager = FeedStager(index: cache.index, publisher: publisher, clock: clock, imagesPerItem: loading.maxImagesPerItem)
        stager.selection = loading.selection
        // At most a host's share of the window at once: all of them may be on one host. Under
        // `--max` no more than that in all: the size limit is checked as the run records each
        // image, so what starts before it may go past the limit, as a window's items may.
        let window = Window(jobs: loading.jobs)
        let earlyAtOnce = min(window.active, window.perHost(loading.perHost))
        let early = EarlyStarts(pipeline: pipeline, inFlight: earlyAtOnce, total: pruning == nil ? PendingWrites.limit : earlyAtOnce)
        stager.early = early
        var polls = FeedPolls(stored: (try? await cache.index.feedPolls()) ?? [:])
        var seen = Set<String>()
        for url in feedURLs where seen.insert(url).inserted {
            let feed: FetchedFeed
            do {
                feed = try await fetcher.fetch(url)
            } catch {
                polls.failed(url, error)
                var report = FeedReport(url: url, title: "")
                report.error = error.description
                reports.append(report)
                continue
            }
            let (notModified, pollHint, addressHome) = (feed.notModified, feed.pollHint, feed.addressHome)
            do {
                // The document goes with its rows staged: the next one is not fetched beside it.
                var (stagedFeed, timeToLive) = try await stager.stage(url: url, feed: consume feed)
                stagedFeed.addressHome = addressHome
                polls.fetched(url, notModified: notModified, pollHint: pollHint, timeToLive: timeToLive)
                staged.append(stagedFeed)
            } catch let error as FeedError {
                // The document could not be read: as when fetching it failed.
                let failure = FeedFetchError(description: "\(Redaction.url(url)): \(error)")
                polls.failed(url, failure)
                var report = FeedReport(url: url, title: "")
                report.error = failure.description
                reports.append(report)
            } catch {
                polls.fetched(url, notModified: notModified, pollHint: pollHint, timeToLive: nil)
                var report = FeedReport(url: url, title: "")
                do {
                    report.error = try Self.recordingFailure(error)
                } catch {
                    // The images started beside the staging end before the transfers and the pool do.
                    await early.stop()
                    throw error
                }
                reports.append(report)
            }
        }
        // Best effort, like stats: a poll time lost costs one early poll, not a failed sync.
        try? await cache.index.recordPolls(polls.recorded)
        // Here, not before the staging: the staging's own buffers (a feed's body, its growing
        // arrays) stay under glibc's adaptive threshold, instead of being mapped and faulted in
        // again at each growth, while the few images `early` started decode beside it.
        FreedMemory.mapLargeAllocations()
        FreedMemory.release()
        var mirror = MirrorRun(pipeline: pipeline, hosts: hosts, loading: loading, progress: progress)
        mirror.pruning = pruning
        var mirrored = await mirror.run(staged, clock: clock, early: early.take())
        FreedMemory.release()
        // A sync without a progress display did not count its URLs (`MirrorRun`); its note does.
        if Task.isCancelled || mirrored.abort != nil, mirrored.counts.total == 0 {
            mirrored.counts.total = (try? await cache.index.distinctMediaCount(feedKeys: staged.map(\.key))) ?? 0
        }
        // Stopped while the feeds were read, nothing was staged: "after 0 of 0 images" would
        // say the feeds had none.
        let howFar = staged.isEmpty ? "while reading its feeds, before any image"
            : "after \(mirrored.done) of \(counted(mirrored.counts.total, "image"))"
        let progressNote = "\(howFar); the cache is consistent and the next sync completes the rest"
        if Task.isCancelled {
            throw CacheCommandError(.interrupted, description: "sync interrupted \(progressNote)")
        }
        if let abort = mirrored.abort {
            // A damaged index is not consistent, and no later sync completes anything until it is rebuilt.
            if abort.contains(IndexError.damageAdvice) { throw CacheCommandError(description: abort) }
            throw CacheCommandError(description: "\(abort): sync stopped \(progressNote)")
        }
        await SyncBookkeeping.record(mirrored.counts, sizes: imaging.sizes, index: cache.index)
        let recorder = FeedRecorder(index: cache.index, publisher: publisher)
        var failures: [ItemFailure] = []
        do {
            try await publisher.publishGalleryShell()
        } catch {
            throw CacheCommandError("cannot write the gallery", error)
        }
        let outcomes = await recorder.recordAll(staged, ledger: mirrored.ledger) { error in
            (try? Self.recordingFailure(error)) == nil
        }
        for (feed, outcome) in zip(staged, outcomes) {
            switch outcome {
            case .recorded(_, let recorded)?:
                reports.append(recorded.report)
                failures += recorded.failures
            case .failed(_, let error)?:
                var report = FeedReport(url: feed.url, title: feed.record.title)
                report.error = try Self.recordingFailure(error)
                reports.append(report)
            case nil:
                // Not started: an earlier feed's failure ended the sync, and was thrown above.
                break
            }
        }
        do {
            try await publisher.publishGalleryIndex()
        } catch {
            throw CacheCommandError("cannot write the gallery", error)
        }
        if let sizeLimit {
            let after = try await SyncBookkeeping.prune(cache: cache, limit: sizeLimit, wentOver: mirrored.pruned != nil,
                                                        garbageGrace: options.cache.garbageGrace, heartbeat: heartbeat)
            if var during = mirrored.pruned {
                during.absorb(after)
                pruned?(during)
            } else {
                pruned?(after)
            }
        }
        await heartbeat?.finish()
        // Beside the index, whatever the storage: it is this writer's, and writers share a bucket.
        await SyncState.save(from: cache.index, to: LocalStorage(layout: cache.layout))
        reports = reports.map(polls.annotate)
        var report = SyncReport(feeds: reports.sorted { feedURLs.firstIndex(of: $0.url) ?? 0 < feedURLs.firstIndex(of: $1.url) ?? 0 },
                                failures: failures, galleryPath: cache.storage.location + "/" + CacheLayout.galleryFile,
                                bytesDownloaded: mirrored.counts.bytes)
        report.imageWarnings = mirrored.warnings
        return report
    }

    /// A feed's rows could not be written: the reason its report gives, or the end of the sync
    /// when the index is damaged or the cache cannot be written at all.
    private static func recordingFailure(_ error: any Error) throws(CacheCommandError) -> String {
        if let error = error as? IndexError, error.isDamage { throw CacheCommandError(description: error.description) }
        if let fatal = CacheWriteFailure.endsTheSync(error) {
            throw CacheCommandError(description: "\(fatal): sync stopped while writing manifests; the cache is consistent")
        }
        return "cannot record the feed in the cache: \(error)"
    }
}

extension ParsedFeed {
    /// `--max-images-per-item`: the first `limit` images of each item, in the feed's order.
    mutating func limitImages(perItem limit: Int) {
        for index in items.indices where items[index].media.count > limit {
            items[index].media.removeSubrange(max(0, limit)...)
        }
    }
}
