import PMLoading
import Synchronization

/// Images started while their feed is still being staged. Staging a feed (its document parsed,
/// each item written into the index in one transaction) keeps one core busy and the index's
/// connection to itself; an image whose URL the index does not know needs neither until its
/// row is written, so its download, hash, decode and files can go on beside the staging. The
/// stager offers such URLs as it writes their items (`offer`); the mirror run then takes what
/// started (`take`) before it reads the staged URLs back, and records each like one of its own.
///
/// A few at a time (`inFlight`), so that they do not crowd out the staging nor go past the
/// window's share of one host; `total` bounds the outcomes held until the run takes them.
final class EarlyStarts: Sendable {
    struct Start: Sendable {
        let url: String
        let task: Task<MediaPipeline.Finished, Never>
    }

    private struct State {
        var starts: [Start] = []
        var offered = Set<String>()
        var running = 0
        var open = true
    }

    private let pipeline: MediaPipeline
    private let inFlight: Int
    private let total: Int
    private let state = Mutex(State())

    init(pipeline: MediaPipeline, inFlight: Int, total: Int) {
        self.pipeline = pipeline
        self.inFlight = inFlight
        self.total = total
    }

    /// Starts `url`, which the index does not know (`MediaPipeline.CacheLookup.absent`), unless
    /// enough are running or started, or the run has taken them; `home`: its feed's address zone.
    func offer(_ url: String, home: AddressZone?) {
        guard !Task.isCancelled else { return }
        var pipeline = self.pipeline
        pipeline.addressRule = home.map { .home($0) }
        state.withLock { state in
            guard state.open, state.running < inFlight, state.starts.count < total,
                  state.offered.insert(url).inserted else { return }
            state.running += 1
            let task = Task { [pipeline] in
                let finished = await pipeline.mirror(url, lookup: .absent)
                self.state.withLock { $0.running -= 1 }
                return finished
            }
            state.starts.append(Start(url: url, task: task))
        }
    }

    /// Cancels what started and waits for it, for a sync that ends before its run: their files
    /// may stay, named by no row, as those of a sync stopped at any point.
    func stop() async {
        for start in take() {
            start.task.cancel()
            _ = await start.task.value
        }
    }

    /// What started, in order; no more starts after this.
    func take() -> [Start] {
        state.withLock { state in
            state.open = false
            defer { state.starts = [] }
            return state.starts
        }
    }
}
