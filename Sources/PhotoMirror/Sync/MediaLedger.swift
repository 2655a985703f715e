import PMCache

/// Which media URLs a sync has done, without a set of them all: a URL is done once the index
/// says it was used at or after the sync's start (`SyncClock`); taken while it is between being
/// read back from the index and having its row committed; failed with its reason. So each URL is
/// mirrored once however many items and feeds name it, and memory follows the URLs in flight
/// (and the failures, which the sync reports one by one anyway).
struct MediaLedger: Sendable {
    let clock: SyncClock
    private(set) var failures: [String: String] = [:]
    /// URLs left out on purpose (`--min-bytes`, `--min-pixels`), with why.
    private(set) var skips: [String: String] = [:]
    private var taken = Set<String>()
    /// Whether any URL was done otherwise than by a plain reuse (a download, a revalidation, a
    /// new thumbnail size, a failure): its row may have changed.
    private(set) var recordedAny = false

    /// Every URL this sync did was an image the index held whole and still holds as it was: a
    /// feed the server answered 304 for then settles to the rows it was staged with.
    var changedNothing: Bool { !recordedAny && failures.isEmpty && skips.isEmpty }

    init(clock: SyncClock) {
        self.clock = clock
    }

    /// Taken and not yet committed, or failed: not to be started again.
    func isTaken(_ url: String) -> Bool { taken.contains(url) || failures[url] != nil || skips[url] != nil }

    /// The index shows the URL used by this sync (`lastAccess`, nil for a URL it does not know):
    /// its row is committed.
    func isDone(lastAccess: Double?) -> Bool { (lastAccess ?? -.infinity) >= clock.start }

    mutating func take(_ url: String) { taken.insert(url) }

    mutating func recorded() { recordedAny = true }

    /// Their rows are committed: the index tells from now on.
    mutating func committed(_ urls: some Sequence<String>) {
        for url in urls { taken.remove(url) }
    }

    mutating func failed(_ url: String, reason: String) {
        taken.remove(url)
        failures[url] = reason
    }

    mutating func skipped(_ url: String, reason: String) {
        taken.remove(url)
        skips[url] = reason
    }

    /// What an image of a staged item comes to after the sync: failed with its reason, or stored
    /// as the index now has it; one the sync did not do stays as staged.
    func settled(_ media: MediaRecord, state: MediaState?) -> MediaRecord {
        var settled = media
        if let reason = failures[media.url] {
            (settled.status, settled.error, settled.sha256) = (.failed, reason, nil)
        } else if let reason = skips[media.url] {
            (settled.status, settled.error, settled.sha256) = (.skipped, reason, nil)
        } else if let state, isDone(lastAccess: state.lastAccess) {
            (settled.status, settled.error, settled.sha256) = (.ok, nil, state.sha256)
        }
        return settled
    }
}
