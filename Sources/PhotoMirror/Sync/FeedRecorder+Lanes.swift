extension FeedRecorder {
    /// Feeds recorded at once: one settles its rows in the index while the other's manifest,
    /// JSON Feed and pages are rendered and written, so the end of a sync of many feeds keeps
    /// both cores busy instead of one.
    static let feedsAtOnce = 2

    /// `record` of each staged feed, `feedsAtOnce` at a time; the outcomes in `staged`'s order.
    /// After an outcome that `stops` says ends the sync, no further feed is started: the ones
    /// not started are nil.
    func recordAll(_ staged: [StagedFeed], ledger: MediaLedger,
                   stops: @escaping @Sendable (any Error) -> Bool) async -> [Result<Recorded, any Error>?] {
        await withTaskGroup(of: (Int, Result<Recorded, any Error>).self) { group in
            var next = staged.indices.makeIterator()
            var stopped = false
            func startNext() {
                guard !stopped, let number = next.next() else { return }
                let feed = staged[number]
                group.addTask {
                    do {
                        return (number, .success(try await record(feed, ledger: ledger)))
                    } catch {
                        return (number, .failure(error))
                    }
                }
            }
            for _ in 0..<Self.feedsAtOnce { startNext() }
            var outcomes = [Result<Recorded, any Error>?](repeating: nil, count: staged.count)
            for await (number, outcome) in group {
                outcomes[number] = outcome
                if case .failure(let error) = outcome, stops(error) { stopped = true }
                startNext()
            }
            return outcomes
        }
    }
}
