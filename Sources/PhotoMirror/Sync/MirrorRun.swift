import Foundation
import PMCache
import PMImaging
import PMLoading
import PMSupport

/// The sync's middle step: every media URL of the staged feeds through the pipeline, a bounded
/// window of them at a time (see `Window`), read back from the index a page at a time
/// (`StagedMediaSource`) and each done once (`MediaLedger`). Stops submitting when the task is
/// cancelled (SIGINT/SIGTERM) or the cache can't be written.
///
/// Each page of URLs is looked up in the index in one query, and the index is written in batches
/// (`PendingWrites`): per image there is no query, no actor hop and no commit of its own.
struct MirrorRun {
    let pipeline: MediaPipeline
    let hosts: HostGate
    let loading: LoadingOptions
    let progress: (@Sendable (SyncProgress) -> Void)?
    /// `sync --max`: prunes between batches as the cache grows past the limit.
    var pruning: SyncPruning?

    /// URLs read ahead of the window, so that a busy host's URLs don't hold up the other hosts'
    /// (`HostQueues`): enough for feeds that mix hosts, few enough to stay small.
    static let lookahead = 2048

    /// Downloaded images between two returns of freed memory to the system (a few ms each).
    static let releaseEvery = 64

    struct Mirrored {
        var ledger: MediaLedger
        var counts = SyncProgress()
        /// Set when the cache itself failed (disk full, not writable): no later item can succeed.
        var abort: String?
        /// What the prunes of `pruning` did, together, if any ran.
        var pruned: PruneReport?
        /// Images this sync decoded from damaged files, with what the decoder said.
        var warnings: [ImageWarning] = []

        var done: Int { counts.done - counts.failed }
    }

    /// `early`: the images started while the feeds were staged (`EarlyStarts`), taken first.
    func run(_ feeds: [StagedFeed], clock: SyncClock, early: [EarlyStarts.Start] = []) async -> Mirrored {
        let index = pipeline.index
        var mirrored = Mirrored(ledger: MediaLedger(clock: clock))
        // Counted for a progress display only: at 10^5 URLs the count is a sorter over all of them.
        if let progress {
            mirrored.counts.total = (try? await index.distinctMediaCount(feedKeys: feeds.map(\.key))) ?? 0
            progress(mirrored.counts)
        }
        let wholeFeeds = await reuseWholeFeeds(feeds, counts: &mirrored.counts, clock: clock)
        var source = StagedMediaSource(index: index, feeds: feeds.filter { !wholeFeeds.contains($0.key) })
        var exhausted = false
        var lookups: [String: MediaPipeline.CacheLookup] = [:]
        /// The zone each queued URL's feed is at (`StagedFeed.addressHome`); absent: any address.
        /// A URL two feeds name is fetched once, under the rule of the feed read first.
        var homes: [String: AddressZone] = [:]
        var queues = HostQueues(perHost: Window(jobs: loading.jobs).perHost(loading.perHost))
        let now = clock.now()

        var writes = PendingWrites()
        /// The outcomes of the URLs queued in `writes`, in its order: what to take back if the
        /// batch cannot be written.
        var queued: [MediaOutcome] = []
        // One batch is flushed (the storage's flush, then the commit) while the window goes on
        // downloading and decoding: waiting for the disk would stall every transfer. The next
        // batch waits for it, so commits stay in order and at most one batch is in the air.
        var flushing: Task<(urls: [String], error: (any Error)?), Never>?
        var flushingOutcomes: [MediaOutcome] = []
        var flushingBytes = 0
        var pruning = self.pruning
        func settle() async {
            guard let task = flushing else { return }
            flushing = nil
            let (urls, error) = await task.value
            guard let error else {
                pruning?.committed(bytes: flushingBytes)
                return mirrored.ledger.committed(urls)
            }
            // Nothing of the batch was written: its items did not make it into the cache.
            let fatal = CacheWriteFailure.endsTheSync(error)
            for (url, outcome) in zip(urls, flushingOutcomes) {
                let failed = fatal.map { MediaOutcome.aborted(reason: $0) } ?? .failed(reason: "\(error)")
                mirrored.counts.revise(outcome, to: failed)
                mirrored.ledger.failed(url, reason: fatal ?? "\(error)")
            }
            if let fatal, mirrored.abort == nil { mirrored.abort = fatal }
        }
        func flushWrites(waiting: Bool) async {
            await settle()
            // Between batches, none in the air: the rows committed so far are all there is.
            if mirrored.abort == nil, !Task.isCancelled { await pruning?.pruneIfDue() }
            flushingBytes = writes.newFileBytes
            var batch = writes.take()
            flushingOutcomes = queued
            queued.removeAll(keepingCapacity: true)
            let storage = pipeline.storage
            flushing = Task {
                let urls = batch.urls
                return (urls, await batch.flush(to: index, storage: storage)?.error)
            }
            if waiting { await settle() }
        }
        var downloadsSinceRelease = 0
        func finish(_ url: String, _ finished: MediaPipeline.Finished) async {
            let outcome = finished.outcome
            mirrored.counts.record(outcome)
            if let warning = finished.warning { mirrored.warnings.append(ImageWarning(mediaURL: url, warning: warning)) }
            switch outcome {
            case .stored(_, let downloaded, _):
                if downloaded { downloadsSinceRelease += 1 }
                if finished.write == nil { mirrored.ledger.committed(CollectionOfOne(url)) }
            case .failed(let reason):
                mirrored.ledger.failed(url, reason: reason)
            case .skipped(let reason):
                mirrored.ledger.skipped(url, reason: reason)
            case .aborted(let reason):
                mirrored.ledger.failed(url, reason: reason)
                if mirrored.abort == nil { mirrored.abort = reason }
            }
            // Only a plain reuse leaves the URL's row as it was (a revalidation writes its own).
            if finished.write?.isTouch != true { mirrored.ledger.recorded() }
            if let write = finished.write {
                let now = ContinuousClock.now
                writes.add(write, for: url, at: now)
                queued.append(outcome)
                if writes.isDue(at: now) {
                    await flushWrites(waiting: false)
                } else if pruning?.isOver(pending: writes.newFileBytes) == true {
                    // Over the size limit: commit what is stored, then prune before storing more.
                    await flushWrites(waiting: true)
                    if mirrored.abort == nil, !Task.isCancelled { await pruning?.pruneIfDue() }
                }
            }
            // Memory use must not creep up with the number of images (see FreedMemory): what the
            // last downloads freed goes back every `releaseEvery` of them, whatever the batches.
            if downloadsSinceRelease >= Self.releaseEvery {
                FreedMemory.release()
                downloadsSinceRelease = 0
            }
            progress?(mirrored.counts)
        }
        /// Reads pages until `wanted` URLs wait (or every feed is read). A URL this sync has
        /// taken, or done (its row committed, so the index says so), is not queued again.
        func refill(upTo wanted: Int = Self.lookahead) async {
            while !exhausted, queues.waiting < wanted, mirrored.abort == nil, !Task.isCancelled {
                let page: (urls: [String], addressHome: AddressZone?)?
                do {
                    page = try await source.nextPage()
                } catch {
                    if mirrored.abort == nil { mirrored.abort = "\(error)" }
                    return
                }
                guard let page else {
                    exhausted = true
                    return
                }
                var fresh: [String] = []
                var seen = Set<String>()
                for url in page.urls where !mirrored.ledger.isTaken(url) && seen.insert(url).inserted { fresh.append(url) }
                let known = try? await index.syncMedia(for: fresh)
                for url in fresh {
                    let state = known?[url]
                    guard !mirrored.ledger.isDone(lastAccess: state?.lastAccess) else { continue }
                    mirrored.ledger.take(url)
                    homes[url] = page.addressHome
                    lookups[url] = known == nil ? .notLookedUp
                        : state.map { .found($0.media, fetchedAt: $0.fetchedAt) } ?? .absent
                    queues.append(url)
                }
            }
        }
        let window = Window(jobs: loading.jobs)
        await withTaskGroup(of: WindowEvent.self) { group in
            var running = 0
            var watching = false
            var drainFlushed = false
            /// Starts the next URL that needs work and returns whether it did. A URL whose image
            /// the cache holds whole finishes on the spot: a re-sync of 2000 unchanged items
            /// then costs 2000 dictionary lookups, not 2000 tasks.
            func startNext() async -> Bool {
                while mirrored.abort == nil, !Task.isCancelled {
                    // One page when none waits: the window's first transfers start after one
                    // page's lookup, not the whole lookahead's (`fill` reads the rest).
                    if queues.isEmpty { await refill(upTo: 1) }
                    guard let ticket = queues.next() else { return false }
                    let url = ticket.url
                    let found = lookups.removeValue(forKey: url) ?? .notLookedUp
                    var itemPipeline = pipeline
                    itemPipeline.addressRule = homes.removeValue(forKey: url).map { .home($0) }
                    if case .found(let media, _) = found, let reused = pipeline.reuse(url, cached: media, now: now) {
                        queues.finished(ticket)
                        await finish(url, reused)
                        continue
                    }
                    group.addTask { [itemPipeline] in .finished(ticket, await itemPipeline.mirror(url, lookup: found)) }
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
                // The lookahead is read with the window started, while its items download and
                // decode; then other hosts' URLs may start where the first page's host is full.
                if !exhausted, queues.waiting < Self.lookahead / 2 {
                    await refill()
                    while window.hasRoom(running: running, parked: parked), await startNext() {}
                }
                let urlsLeft = !queues.isEmpty || !exhausted
                // Every URL started: what is queued commits while the last items decode, so the
                // batch left after the last one is a window's worth, not up to `limit`.
                if !urlsLeft, !drainFlushed {
                    drainFlushed = true
                    if !writes.urls.isEmpty { await flushWrites(waiting: false) }
                }
                if !watching, urlsLeft, running > 0, mirrored.abort == nil, !Task.isCancelled {
                    watching = true
                    group.addTask {
                        await hosts.waitForParking(after: generation)
                        return .parked
                    }
                }
            }
            for start in early {
                mirrored.ledger.take(start.url)
                let ticket = queues.handOut(start.url)
                group.addTask {
                    await withTaskCancellationHandler { .finished(ticket, await start.task.value) } onCancel: { start.task.cancel() }
                }
                running += 1
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
        mirrored.pruned = pruning?.report
        return mirrored
    }
}

extension MirrorRun {
    /// The feeds answered 304 whose images the cache holds whole, each reused in one index
    /// transaction (`PhotoIndex.reuseWholeFeed`) instead of URL by URL: their keys. With
    /// `--revalidate` every image is asked about, so none is.
    func reuseWholeFeeds(_ feeds: [StagedFeed], counts: inout SyncProgress, clock: SyncClock) async -> Set<String> {
        guard !loading.revalidateMedia else { return [] }
        let sizes = pipeline.imaging.sizes.map(\.description)
        var reused = Set<String>()
        for feed in feeds where feed.notModified {
            guard let urls = try? await pipeline.index.reuseWholeFeed(
                feedKey: feed.key, imageURL: feed.record.imageURL, sizes: sizes, at: clock.now(), syncStart: clock.start,
                refetchEvicted: loading.refetchEvicted)
            else { continue }
            reused.insert(feed.key)
            counts.done += urls
            counts.reused += urls
            progress?(counts)
        }
        return reused
    }
}

/// What the mirror run's task group hears: an item done, or an item parked at the host gate.
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
        case .skipped:
            skipped -= 1
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
        case .skipped:
            skipped += 1
        }
    }
}
