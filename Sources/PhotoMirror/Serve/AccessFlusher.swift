import Foundation
import Synchronization

/// The recorder's own thread: wakes every `tick` seconds to flush when due, and flushes a last
/// time when stopped. The index's waits (its busy timeout, the commit) happen here, never on a
/// request's thread or the Swift cooperative pool.
public final class AccessFlusher: Sendable {
    private struct State {
        var stopping = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let recorder: AccessRecorder
    private let state = Mutex(State())
    private let wake = NSCondition()

    /// `tick` defaults to a second, or the recorder's interval when that is shorter.
    public init(recorder: AccessRecorder, tick: Double? = nil) {
        self.recorder = recorder
        let tick = tick ?? min(1, recorder.interval)
        let thread = Thread { [self] in run(tick: tick) }
        thread.name = "photomirror.access-flush"
        thread.start()
    }

    /// Stops the thread; returns once its last flush is done.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // The condition's lock is held around the change so the thread, between its check
            // and its wait, cannot miss the signal.
            wake.lock()
            let finished = state.withLock { state in
                state.stopping = true
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            wake.broadcast()
            wake.unlock()
            if finished { continuation.resume() }
        }
    }

    private func run(tick: Double) {
        while waitForTick(tick) { recorder.flushIfDue() }
        recorder.finish()
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits out one tick; false once stopping.
    private func waitForTick(_ tick: Double) -> Bool {
        wake.lock()
        defer { wake.unlock() }
        if !state.withLock({ $0.stopping }) { _ = wake.wait(until: Date(timeIntervalSinceNow: tick)) }
        return !state.withLock { $0.stopping }
    }
}
