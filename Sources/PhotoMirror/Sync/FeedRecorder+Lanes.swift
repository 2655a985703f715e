extension FeedRecorder {
    /// Feeds recorded at once: one settles its rows in the index while the other's manifest,
    /// JSON Feed and pages are rendered and written, so the end of a sync of many feeds keeps
    /// both cores busy instead of one.
    static let feedsAtOnce = 2

    /// What `record` did with one staged feed, by its place in the list.
    enum Outcome: Sendable {
        case recorded(Int, Recorded)
        case failed(Int, any Error)

        var number: Int {
            switch self {
            case .recorded(let number, _), .failed(let number, _): number
            }
        }
    }

    /// `record` of each staged feed, `feedsAtOnce` at a time; the outcomes in `staged`'s order.
    /// After an outcome that `stops` says ends the sync, no further feed is started: the ones
    /// not started are nil.
    ///
    /// Each feed in progress reads its documents through a read-only connection of its own
    /// (`ReaderLanes`), beside the other feed's settling on the writer's connection.
    func recordAll(_ staged: [StagedFeed], ledger: MediaLedger,
                   stops: @escaping @Sendable (any Error) -> Bool) async -> [Outcome?] {
        var lanes = await ReaderLanes(count: min(Self.feedsAtOnce, staged.count), indexPath: publisher.cache.layout.indexPath)
        return await withTaskGroup(of: Outcome.self) { group in
            var outcomes = [Outcome?](repeating: nil, count: staged.count)
            var (started, finished, stopped) = (0, 0, false)
            while true {
                while !stopped, started < staged.count, started - finished < Self.feedsAtOnce {
                    let (number, feed, reader) = (started, staged[started], lanes.lend(to: started))
                    group.addTask {
                        do {
                            return .recorded(number, try await record(feed, ledger: ledger, reader: reader))
                        } catch {
                            return .failed(number, error)
                        }
                    }
                    started += 1
                }
                guard let outcome = await group.next() else { return outcomes }
                finished += 1
                outcomes[outcome.number] = outcome
                await lanes.takeBack(from: outcome.number)
                if case .failed(_, let error) = outcome, stops(error) { stopped = true }
            }
        }
    }
}
