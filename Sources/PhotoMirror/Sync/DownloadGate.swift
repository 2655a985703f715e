import PMLoading

/// Decides when a download may start: at most `maxTransfers` (`--jobs`) at once, and none while
/// `maxWaiting` downloaded images already wait for the codec pool.
///
/// The sync keeps more items in flight than transfers, so that a connection freed by a finished
/// download is reused at once while that image is being decoded; this gate keeps the transfers
/// themselves at `--jobs` (nothing waits queued inside libcurl with its timeout running).
/// The second bound is for memory: on a fast network decoding is the bottleneck, and without it
/// every transfer would finish and park its body in the pool's queue — the longer the feed, the
/// likelier a run of big bodies, so a sync's peak memory grew with its length. On a slow network
/// bodies never pile up and all `--jobs` transfers stay busy.
///
/// Transfers pass through it in `GatedLoader`, after their host has let them go (`HostGate`).
actor DownloadGate {
    private let maxTransfers: Int
    private let maxWaiting: Int
    private let decoders: Int
    private var transfers = 0
    private var waiting = 0
    private var queue: [CheckedContinuation<Void, Never>] = []

    init(maxTransfers: Int, maxWaiting: Int, decoders: Int) {
        self.maxTransfers = max(1, maxTransfers)
        self.maxWaiting = max(1, maxWaiting)
        self.decoders = max(1, decoders)
    }

    /// While the decoders keep up (fewer bodies than decoders), all `maxTransfers` may run.
    /// Once bodies queue up, transfers count against the same budget as the waiting bodies:
    /// on a fast network every transfer lands within a millisecond, and a burst of them would
    /// otherwise stack up to `maxTransfers` more bodies on top of `maxWaiting`.
    private var canStart: Bool {
        guard transfers < maxTransfers, waiting < maxWaiting else { return false }
        return waiting < decoders || transfers + waiting < maxWaiting
    }

    /// A response whose body is counted as waiting for the codec pool until `decoded`: a
    /// success. Error pages are dropped at once, and a retried answer is never a success.
    static func holdsBody(_ response: HTTPResponse) -> Bool {
        (200..<300).contains(response.status)
    }

    /// Returns when a download may start; the caller must then call `arrived` (a response that
    /// `holdsBody`) or `failed`.
    func admit() async {
        if queue.isEmpty, canStart {
            transfers += 1
            return
        }
        // `wake` counts the transfer for us before resuming.
        await withCheckedContinuation { queue.append($0) }
    }

    /// The download's body arrived; the caller must call `decoded` when done with it.
    func arrived() {
        transfers -= 1
        waiting += 1
        wake()
    }

    /// The download failed (or was cancelled) before a body arrived, or its answer holds none.
    func failed() {
        transfers -= 1
        wake()
    }

    /// The body was decoded and stored, or turned out not to be an image.
    func decoded() {
        waiting -= 1
        wake()
    }

    private func wake() {
        while canStart, !queue.isEmpty {
            transfers += 1
            queue.removeFirst().resume()
        }
    }
}
