import PMCache

extension FeedRecorder {
    /// Feeds recorded at once: one settles its rows in the index while the other's manifest,
    /// JSON Feed and pages are rendered and written, so the end of a sync of many feeds keeps
    /// both cores busy instead of one.
    static let feedsAtOnce = 2

    /// The page cache of each feed's read-only connection: its reads are lookups all over the
    /// index, which a cache of any size the sync can afford misses anyway (the file's pages
    /// stay in the OS's cache).
    static let readerPageCacheKiB = 256

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
    /// (`Publisher.reading(from:)`): on the writer's one connection, the rows of three documents
    /// a feed were read one feed after the other, and the end of a sync of 50 feeds kept
    /// 1.5 cores busy. A connection that cannot be opened leaves its feeds on the writer's.
    func recordAll(_ staged: [StagedFeed], ledger: MediaLedger,
                   stops: @escaping @Sendable (any Error) -> Bool) async -> [Outcome?] {
        let indexPath = publisher.cache.layout.indexPath
        var idleReaders = (0..<min(Self.feedsAtOnce, staged.count)).map { _ in try? PhotoIndex(readingBesideWriter: indexPath) }
        for reader in idleReaders { await reader?.boundPageCache(kibibytes: Self.readerPageCacheKiB) }
        return await withTaskGroup(of: Outcome.self) { group in
            var outcomes = [Outcome?](repeating: nil, count: staged.count)
            var readers: [Int: PhotoIndex?] = [:]
            var (started, finished, stopped) = (0, 0, false)
            while true {
                while !stopped, started < staged.count, started - finished < Self.feedsAtOnce {
                    let (number, feed, reader) = (started, staged[started], idleReaders.popLast() ?? nil)
                    readers[number] = reader
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
                // Its next feed's reads must see that feed's rows, committed after these reads.
                let reader = readers.removeValue(forKey: outcome.number) ?? nil
                await reader?.endReads()
                idleReaders.append(reader)
                if case .failed(_, let error) = outcome, stops(error) { stopped = true }
            }
        }
    }
}
