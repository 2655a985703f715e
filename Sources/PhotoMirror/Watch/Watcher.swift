import Foundation
import PMCache

/// `photomirror watch`: keeps a mirror fresh by syncing, in rounds, the feeds that are due
/// (`WatchSchedule`), with the cache's writer lock held only during a round so that prune,
/// verify and stats run between rounds. Ends only when cancelled (a signal), throwing
/// `CacheCommandError.Kind.interrupted`, or when every feed is gone.
public struct Watcher: Sendable {
    public let cacheRoot: String
    public let options: SyncOptions
    public let feedURLs: [String]
    public let every: Double
    public var progress: (@Sendable (SyncProgress) -> Void)?
    /// Told when a round's sync begins (`progress` then follows it), so that what reports its
    /// progress (`watch --stats-every`) runs during rounds only, not through the waits between.
    public var roundStarts: (@Sendable () -> Void)?
    /// Told what each prune after a round did.
    public var pruned: (@Sendable (PruneReport) -> Void)?
    /// The transport and the storage of every round.
    public var stages = SyncStages.standard

    public init(cacheRoot: String, options: SyncOptions, feedURLs: [String], every: Double) {
        self.cacheRoot = cacheRoot
        self.options = options
        self.feedURLs = feedURLs
        self.every = every
    }

    /// Runs rounds until cancelled; `round` is told of each as it ends, with the sync's report
    /// when it ran. Returns the feeds that are gone when no live feed is left.
    public func run(round: @Sendable (WatchRound, SyncReport?) -> Void) async throws(CacheCommandError) -> [String] {
        var schedule = await initialSchedule()
        var number = 0
        while true {
            let now = Date().timeIntervalSince1970
            let due = schedule.due(at: now)
            if !due.isEmpty {
                number += 1
                var summary = WatchRound(number: number, startedAt: now)
                roundStarts?()
                var engine = SyncEngine(cacheRoot: cacheRoot, options: options, progress: progress)
                engine.pruned = pruned
                engine.stages = stages
                var synced: SyncReport?
                do {
                    let report = try await engine.run(feedURLs: due)
                    synced = report
                    summary.count(report)
                    let finished = Date().timeIntervalSince1970
                    for feed in report.feeds {
                        schedule.polled(feed.url, at: finished, pollAfter: feed.pollAfter, gone: feed.gone,
                                        jitter: Double.random(in: 0..<1))
                    }
                } catch where error.kind == .interrupted {
                    throw error
                } catch {
                    // The lock held past --wait, a full disk: not the feeds' fault; all are tried next round.
                    summary.error = error.description
                    let finished = Date().timeIntervalSince1970
                    for url in due {
                        schedule.polled(url, at: finished, pollAfter: nil, gone: false, jitter: Double.random(in: 0..<1))
                    }
                }
                summary.seconds = Date().timeIntervalSince1970 - now
                summary.nextAt = schedule.nextDue
                round(summary, synced)
            }
            guard let next = schedule.nextDue else { return schedule.gone }
            let wait = next - Date().timeIntervalSince1970
            if wait > 0 {
                do {
                    try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
                } catch {
                    throw CacheCommandError(.interrupted, description: "watch stopped between rounds after \(counted(number, "round")); the cache is consistent")
                }
            }
            if Task.isCancelled {
                throw CacheCommandError(.interrupted, description: "watch stopped after \(counted(number, "round")); the cache is consistent")
            }
        }
    }

    /// From the index, read-only: when each feed was last synced and what it asked for. A cache
    /// that does not exist yet (or cannot be read) has every feed due now.
    private func initialSchedule() async -> WatchSchedule {
        var lastPolls: [String: Double] = [:]
        var polls: [String: FeedPoll] = [:]
        if let cache = try? ReadOnlyCache(root: cacheRoot, note: { _ in }) {
            for feed in (try? await cache.index.feeds()) ?? [] { lastPolls[feed.url] = feed.lastSync }
            polls = (try? await cache.index.feedPolls()) ?? [:]
        }
        return WatchSchedule(feeds: feedURLs, every: every, lastPolls: lastPolls, polls: polls,
                             now: Date().timeIntervalSince1970, jitter: { Double.random(in: 0..<1) })
    }
}
