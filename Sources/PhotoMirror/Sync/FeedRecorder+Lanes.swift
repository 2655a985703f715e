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
    func recordAll(_ staged: [StagedFeed], ledger: MediaLedger,
                   stops: @escaping @Sendable (any Error) -> Bool) async -> [Outcome?] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes = [Outcome?](repeating: nil, count: staged.count)
            var (started, finished, stopped) = (0, 0, false)
            while true {
                while !stopped, started < staged.count, started - finished < Self.feedsAtOnce {
                    let (number, feed) = (started, staged[started])
                    group.addTask {
                        do {
                            return .recorded(number, try await record(feed, ledger: ledger))
                        } catch {
                            return .failed(number, error)
                        }
                    }
                    started += 1
                }
                guard let outcome = await group.next() else { return outcomes }
                finished += 1
                outcomes[outcome.number] = outcome
                if case .failed(_, let error) = outcome, stops(error) { stopped = true }
            }
        }
    }
}
