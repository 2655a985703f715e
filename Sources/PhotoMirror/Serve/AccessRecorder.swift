import Foundation
import PMCache
import Synchronization

/// Collects the content files `serve` hands out and passes them to the index in batches, off
/// the request path. A request only puts the file in a small locked map (one entry per file
/// however often it is asked for, the latest time kept); the flusher hands the whole map to the
/// sink once `interval` seconds have passed since the last try, and once more at shutdown. A
/// busy index keeps the batch for the next try; an index that cannot take it (none, read-only,
/// an older schema) turns counting off for the run, said once.
public final class AccessRecorder: Sendable {
    private struct State {
        var pending: [AccessedFile: Double] = [:]
        var lastAttempt: Double
        var counting = true
    }

    public let interval: Double
    private let state: Mutex<State>
    /// Held for a whole write, so two flushes can never hand the sink overlapping batches.
    private let flushing = Mutex(())
    private let sink: any AccessSink
    private let clock: @Sendable () -> Double
    private let note: @Sendable (String) -> Void

    /// `clock` gives seconds since 1970; `note` receives the few lines worth telling a person.
    public init(sink: any AccessSink, interval: Double = 5,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                note: @escaping @Sendable (String) -> Void) {
        self.sink = sink
        self.interval = interval
        self.clock = clock
        self.note = note
        state = Mutex(State(lastAttempt: clock()))
    }

    /// Counting into the index of the cache at `cacheRoot`.
    public convenience init(cacheRoot: String, note: @escaping @Sendable (String) -> Void) {
        self.init(sink: IndexAccessWriter(indexPath: CacheLayout(root: cacheRoot).indexPath),
                  interval: Self.testInterval ?? 5, note: note)
    }

    /// `PHOTOMIRROR_TEST_ACCESS_INTERVAL` (seconds): batches many times a second, for the tests
    /// that prove a writer never fails beside them, which need batches to land between the
    /// writer's statements and not once in five seconds.
    static let testInterval = ProcessInfo.processInfo.environment["PHOTOMIRROR_TEST_ACCESS_INTERVAL"]
        .flatMap(Double.init).map { max(0.01, $0) }

    /// On a request's thread: a clock read, one lock, one map insert; no I/O.
    public func record(_ file: AccessedFile) {
        let now = clock()
        state.withLock { state in
            guard state.counting else { return }
            state.pending[file] = max(state.pending[file] ?? now, now)
        }
    }

    /// Files waiting for a write.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Whether accesses are still being counted (false once the index turned out unusable).
    public var isCounting: Bool { state.withLock { $0.counting } }

    /// Flushes when `interval` has passed since the last try; nil when it had not, or when
    /// there was nothing to write.
    @discardableResult
    public func flushIfDue() -> AccessWriteOutcome? {
        let now = clock()
        guard state.withLock({ now - $0.lastAttempt >= interval }) else { return nil }
        return flush()
    }

    /// Hands everything pending to the sink now; nil when there was nothing to write.
    @discardableResult
    public func flush() -> AccessWriteOutcome? {
        flushing.withLock { _ -> AccessWriteOutcome? in
            let now = clock()
            let batch = state.withLock { state in
                state.lastAttempt = now
                defer { state.pending = [:] }
                return state.pending
            }
            guard !batch.isEmpty else { return nil }
            let outcome = sink.write(batch)
            switch outcome {
            case .written:
                break
            case .busy:
                state.withLock { state in
                    guard state.counting else { return }
                    for (file, time) in batch { state.pending[file] = max(state.pending[file] ?? time, time) }
                }
            case .unavailable(let reason):
                let wasCounting = state.withLock { state in
                    defer { (state.counting, state.pending) = (false, [:]) }
                    return state.counting
                }
                if wasCounting { note("not counting served images as used for prune: \(reason)") }
            }
            return outcome
        }
    }

    /// The last flush, at shutdown: a busy index gets a few more tries (each waits the sink's
    /// busy timeout), then whatever is left is reported as not counted.
    public func finish(attempts: Int = 4) {
        for _ in 0..<attempts {
            guard flush() == .busy else { return }
        }
        let lost = pendingCount
        if lost > 0 { note("\(lost) served files not counted as used for prune: the index stayed busy") }
    }
}
