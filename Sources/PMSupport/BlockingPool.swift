import Foundation
import Synchronization

/// A fixed set of dedicated threads for blocking work (decoding, encoding, file I/O at volume).
///
/// Swift's cooperative pool has one thread per core (two here) and on Linux it *is* libdispatch's
/// global pool, so a blocking call there stalls every other task. Work submitted here runs on
/// threads of our own, at most `threadCount` at a time, and resumes the caller's continuation.
public final class BlockingPool: Sendable {
    private struct State {
        // A taken job's slot is set to nil at once: the closure holds what the job captured (a
        // downloaded image body), which must not outlive the job while the queue awaits compaction.
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let wake = NSCondition()
    public let threadCount: Int

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, name: String = "photomirror.blocking") {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in workLoop() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    /// Runs `work` on a pool thread and returns its result. Cancellation is checked before the
    /// work starts; blocking work itself is not interruptible.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            enqueue { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Stops the threads once the queued jobs are done.
    public func shutdown() {
        wake.lock()
        state.withLock { $0.stopping = true }
        wake.broadcast()
        wake.unlock()
    }

    // The condition's lock is held around every change so a worker between its check and its
    // `wait()` cannot miss the signal.
    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        wake.lock()
        state.withLock { $0.jobs.append(job) }
        wake.signal()
        wake.unlock()
    }

    private func workLoop() {
        while let job = nextJob() { job() }
    }

    private func nextJob() -> (@Sendable () -> Void)? {
        wake.lock()
        defer { wake.unlock() }
        while true {
            let taken: (@Sendable () -> Void)?? = state.withLock { state in
                if state.head < state.jobs.count {
                    let job = state.jobs[state.head]
                    state.jobs[state.head] = nil
                    state.head += 1
                    if state.head > 1024, state.head * 2 > state.jobs.count {
                        state.jobs.removeFirst(state.head)
                        state.head = 0
                    }
                    return .some(job)
                }
                return state.stopping ? .some(nil) : nil
            }
            if let taken { return taken }
            wake.wait()
        }
    }
}
