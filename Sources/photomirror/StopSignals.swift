import Dispatch
import Foundation
import Synchronization

/// Delivers SIGINT/SIGTERM as an awaitable event instead of killing the process, so `serve`
/// can stop its server cleanly. libdispatch receives the signals; no thread waits for them.
final class StopSignals: Sendable {
    private let inbox = Inbox()
    /// Held only to keep the sources alive: a released source stops delivering.
    private let sources: Mutex<[DispatchSourceSignal]>

    init(_ numbers: [Int32]) {
        let queue = DispatchQueue(label: "photomirror.signals")
        var sources: [DispatchSourceSignal] = []
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [inbox] in inbox.deliver(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }

    /// The first signal received, waiting for it if none has come yet.
    func next() async -> Int32 { await inbox.next() }

    private final class Inbox: Sendable {
        private struct State {
            var received: Int32?
            var waiter: CheckedContinuation<Int32, Never>?
        }
        private let state = Mutex(State())

        func next() async -> Int32 {
            await withCheckedContinuation { continuation in
                let ready: Int32? = state.withLock { state in
                    if let received = state.received { return received }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        func deliver(_ number: Int32) {
            let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
                if state.received == nil { state.received = number }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: number)
        }
    }
}
