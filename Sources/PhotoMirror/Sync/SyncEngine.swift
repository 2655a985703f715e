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
    /// Opens the cache for a run: its folder, lock and index (tests: an index in memory).
    var openCache: @Sendable (_ root: String, _ lockWait: Double, _ storage: (CacheLayout) -> any CacheStorage) throws(CacheCommandError)
        -> OpenCache = { try OpenCache(root: $0, lockWait: $1, storage: $2) }

    public init(cacheRoot: String, options: SyncOptions, progress: (@Sendable (SyncProgress) -> Void)? = nil) {
        self.cacheRoot = cacheRoot
        self.options = options
        self.progress = progress
    }

    /// Memory must not grow with the feed: the index's page cache is bounded well below
    /// SQLite's default of 2 MB (a 2000-image sync touches ~3 MB of index pages).
    static let indexPageCacheKiB = 512

    public func run(feedURLs: [String]) async throws(CacheCommandError) -> SyncReport {
        let loading = options.loading, imaging = options.imaging
        let curl = stages.transport(loading)
        let stages = stages
        let cache: OpenCache
        do {
            cache = try openCache(cacheRoot, options.cache.lockWait) { stages.storage($0, RetryingLoader(base: curl, policy: loading.retry)) }
        } catch {
            curl.shutdown()
            throw error
        }
        do {
            try await cache.storage.prepare()
        } catch {
            curl.shutdown()
            throw CacheCommandError(description: "cannot prepare \(cache.storage.location): \(error)")
        }
        await cache.index.boundPageCache(kibibytes: Self.indexPageCacheKiB)
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
        var reports: [FeedReport] = []
        var fetched: [(url: String, feed: FetchedFeed)] = []
        let fetcher = FeedFetcher(loader: feedLoader, options: loading, index: cache.index)
        var polls = FeedPolls(stored: (try? await cache.index.feedPolls()) ?? [:])
        for url in feedURLs {
            do {
                var feed = try await fetcher.fetch(url)
                feed.parsed.limitImages(perItem: loading.maxImagesPerItem)
                polls.fetched(url, feed)
                fetched.append((url, feed))
            } catch {
                polls.failed(url, error)
                var report = FeedReport(url: url, title: "")
                report.error = error.description
                reports.append(report)
            }
        }
        // Best effort, like stats: a poll time lost costs one early poll, not a failed sync.
        try? await cache.index.recordPolls(polls.recorded)
        // Two waiting bodies per codec thread (and two more) keep the pool fed while the next
        // downloads arrive.
        let gate = DownloadGate(maxTransfers: loading.jobs, maxWaiting: 2 * max(1, imaging.codecThreads) + 2,
                                decoders: imaging.codecThreads)
        let imageLoader = RetryingLoader(base: PoliteLoader(base: GatedLoader(gate: gate, base: curl), gate: hosts),
                                         policy: loading.retry)
        let pipeline = MediaPipeline(loader: imageLoader, index: cache.index, storage: cache.storage, pool: pool,
                                     loading: loading, imaging: imaging, gate: gate)
        FreedMemory.mapLargeAllocations()
        FreedMemory.release()
        let outcomes = await mirrorAll(uniqueMediaURLs(fetched.map(\.feed)), pipeline: pipeline, hosts: hosts)
        FreedMemory.release()
        let progressNote = "after \(outcomes.done) of \(outcomes.total) images; the cache is consistent and the next sync completes the rest"
        if Task.isCancelled {
            throw CacheCommandError(.interrupted, description: "sync interrupted \(progressNote)")
        }
        if let abort = outcomes.abort {
            // A damaged index is not consistent, and no later sync completes anything until it is rebuilt.
            if abort.contains(IndexError.damageAdvice) { throw CacheCommandError(description: abort) }
            throw CacheCommandError(description: "\(abort): sync stopped \(progressNote)")
        }
        await SyncBookkeeping.record(outcomes.results, sizes: imaging.sizes, index: cache.index)
        let publisher = Publisher(cache: cache, sizes: imaging.sizes)
        let recorder = FeedRecorder(index: cache.index, publisher: publisher)
        var failures: [ItemFailure] = []
        do {
            try await publisher.publishGalleryShell()
        } catch {
            throw CacheCommandError("cannot write the gallery", error)
        }
        // Each parsed feed is let go once published: the next one's pages don't stack on it.
        fetched.reverse()
        while let (url, feed) = fetched.popLast() {
            let title = feed.parsed.title
            do {
                let recorded = try await recorder.record(url: url, feed: consume feed, outcomes: outcomes.results,
                                                         filesWritten: outcomes.filesWritten)
                reports.append(recorded.report)
                failures += recorded.failures
            } catch {
                if let error = error as? IndexError, error.isDamage { throw CacheCommandError(description: error.description) }
                if let fatal = CacheWriteFailure.endsTheSync(error) {
                    throw CacheCommandError(description: "\(fatal): sync stopped while writing manifests; the cache is consistent")
                }
                var report = FeedReport(url: url, title: title)
                report.error = "cannot record the feed in the cache: \(error)"
                reports.append(report)
            }
        }
        do {
            try await publisher.publishGalleryIndex()
        } catch {
            throw CacheCommandError("cannot write the gallery", error)
        }
        if let sizeLimit { pruned?(try await SyncBookkeeping.prune(cache: cache, limit: sizeLimit)) }
        // Beside the index, whatever the storage: it is this writer's, and writers share a bucket.
        await SyncState.save(from: cache.index, to: LocalStorage(layout: cache.layout))
        reports = reports.map(polls.annotate)
        return SyncReport(feeds: reports.sorted { feedURLs.firstIndex(of: $0.url) ?? 0 < feedURLs.firstIndex(of: $1.url) ?? 0 },
                          failures: failures, galleryPath: cache.storage.location + "/" + CacheLayout.galleryFile,
                          bytesDownloaded: outcomes.bytes)
    }

    /// Every media URL once, in feed order, each feed's own image after its items': the same
    /// image in two feeds (or two items) is fetched once.
    private func uniqueMediaURLs(_ feeds: [FetchedFeed]) -> [String] {
        var seen = Set<String>()
        var urls: [String] = []
        for feed in feeds {
            for item in feed.parsed.items {
                for media in item.media where seen.insert(media.url).inserted { urls.append(media.url) }
            }
            if let image = feed.parsed.image, seen.insert(image).inserted { urls.append(image) }
        }
        return urls
    }

    private struct Mirrored {
        var results: [String: MediaOutcome] = [:]
        /// URLs whose files this sync wrote (downloads, new thumbnail sizes): their feeds' pages change.
        var filesWritten = Set<String>()
        var bytes = 0
        var done = 0
        var total = 0
        /// Set when the cache itself failed (disk full, not writable): no later item can succeed.
        var abort: String?
    }

    /// Runs the pipeline over `urls`, a bounded window of them at a time (see `Window`). Stops
    /// submitting when the task is cancelled (SIGINT/SIGTERM) or the cache can't be written.
    ///
    /// The index is read once for every URL before the first download and written in batches
    /// (`PendingWrites`), so per image there is no query, no actor hop and no commit of its own.
    private func mirrorAll(_ urls: [String], pipeline: MediaPipeline, hosts: HostGate) async -> Mirrored {
        var mirrored = Mirrored()
        var counts = SyncProgress()
        counts.total = urls.count
        progress?(counts)
        var known = try? await pipeline.index.media(for: urls)
        func lookup(_ url: String) -> MediaPipeline.CacheLookup {
            guard known != nil else { return .notLookedUp }
            return known?.removeValue(forKey: url).map { .found($0) } ?? .absent
        }
        var writes = PendingWrites()
        // One batch is flushed (the storage's flush, then the commit) while the window goes on
        // downloading and decoding: waiting for the disk would stall every transfer. The next
        // batch waits for it, so commits stay in order and at most one batch is in the air.
        var flushing: Task<(urls: [String], error: any Error)?, Never>?
        func settle() async {
            guard let task = flushing else { return }
            flushing = nil
            guard let (lost, error) = await task.value else { return }
            // Nothing of the batch was written: its items did not make it into the cache.
            let fatal = CacheWriteFailure.endsTheSync(error)
            for url in lost {
                let failed = fatal.map { MediaOutcome.aborted(reason: $0) } ?? .failed(reason: "\(error)")
                if let previous = mirrored.results[url] { counts.revise(previous, to: failed) }
                mirrored.results[url] = failed
            }
            if let fatal, mirrored.abort == nil { mirrored.abort = fatal }
        }
        func flushWrites(waiting: Bool) async {
            await settle()
            var batch = writes.take()
            let (index, storage) = (pipeline.index, pipeline.storage)
            flushing = Task { await batch.flush(to: index, storage: storage) }
            if waiting { await settle() }
        }
        var bodiesFreed = false
        func finish(_ url: String, _ finished: MediaPipeline.Finished) async {
            let outcome = finished.outcome
            mirrored.results[url] = outcome
            counts.record(outcome)
            if case .stored(_, true, _) = outcome { bodiesFreed = true }
            if let write = finished.write {
                if case .record = write { mirrored.filesWritten.insert(url) }
                writes.add(write, for: url)
                if writes.isFull {
                    await flushWrites(waiting: false)
                    // Memory use must not creep up with the number of images (see FreedMemory);
                    // a batch of reused images freed nothing worth returning.
                    if bodiesFreed { FreedMemory.release() }
                    bodiesFreed = false
                }
            }
            progress?(counts)
            if case .aborted(let reason) = outcome, mirrored.abort == nil {
                mirrored.abort = reason
            }
        }
        let window = Window(jobs: options.loading.jobs)
        await withTaskGroup(of: WindowEvent.self) { group in
            var queues = HostQueues(urls, perHost: window.perHost(options.loading.perHost))
            var running = 0
            var watching = false
            let now = Date().timeIntervalSince1970
            /// Starts the next URL that needs work and returns whether it did. A URL whose image
            /// the cache holds whole finishes on the spot: a re-sync of 2000 unchanged items
            /// then costs 2000 dictionary lookups, not 2000 tasks.
            func startNext() async -> Bool {
                while mirrored.abort == nil, !Task.isCancelled, let ticket = queues.next() {
                    let url = ticket.url
                    let found = lookup(url)
                    if case .found(let media) = found, let reused = pipeline.reuse(url, cached: media, now: now) {
                        queues.finished(ticket)
                        await finish(url, reused)
                        continue
                    }
                    group.addTask { .finished(ticket, await pipeline.mirror(url, lookup: found)) }
                    running += 1
                    return true
                }
                return false
            }
            /// Starts items until the window is full, and keeps an ear on the host gate while URLs
            /// are left, so that items parking there make room for others.
            func fill() async {
                let (parked, generation) = await hosts.parking()
                while window.hasRoom(running: running, parked: parked), await startNext() {}
                if !watching, !queues.isEmpty, running > 0, mirrored.abort == nil, !Task.isCancelled {
                    watching = true
                    group.addTask {
                        await hosts.waitForParking(after: generation)
                        return .parked
                    }
                }
            }
            await fill()
            while let event = await group.next() {
                switch event {
                case .finished(let ticket, let finished):
                    running -= 1
                    queues.finished(ticket)
                    await finish(ticket.url, finished)
                    if mirrored.abort != nil { group.cancelAll() }
                case .parked:
                    watching = false
                }
                await fill()
                // Only the watcher is left: nothing more will park.
                if running == 0 { group.cancelAll() }
            }
        }
        // Also after an interruption: these files are in place and their rows complete them.
        await flushWrites(waiting: true)
        mirrored.bytes = counts.bytes
        mirrored.done = counts.done - counts.failed
        mirrored.total = counts.total
        return mirrored
    }
}

/// What `mirrorAll`'s task group hears: an item done, or an item parked at the host gate.
private enum WindowEvent: Sendable {
    case finished(HostQueues.Ticket, MediaPipeline.Finished)
    case parked
}

extension SyncProgress {
    /// Moves an already counted item to another outcome (its index write failed).
    mutating func revise(_ previous: MediaOutcome, to outcome: MediaOutcome) {
        switch previous {
        case .stored(_, let downloaded, let bytes):
            if downloaded { self.downloaded -= 1 } else { reused -= 1 }
            self.bytes -= bytes
        case .failed, .aborted:
            failed -= 1
        }
        done -= 1
        record(outcome)
    }

    mutating func record(_ outcome: MediaOutcome) {
        done += 1
        switch outcome {
        case .stored(_, let downloaded, let bytes):
            if downloaded { self.downloaded += 1 } else { reused += 1 }
            self.bytes += bytes
        case .failed, .aborted:
            failed += 1
        }
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
