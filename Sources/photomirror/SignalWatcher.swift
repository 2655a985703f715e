import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT/SIGTERM into task cancellation, so a sync stops cleanly: transfers cancelled,
/// no new work started, the index left consistent. A second signal exits at once (the cache
/// is crash-safe, so even that loses nothing but the work in flight).
final class SignalWatcher {
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    init(signals: [Int32] = [SIGINT, SIGTERM], onSignal: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "photomirror.signals")
        let received = received
        sources = signals.map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let (first, _) = received.number.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                if !first { exit(128 + number) }
                onSignal()
            }
            source.resume()
            return source
        }
    }

    /// A parent may start us with SIGINT/SIGTERM blocked (test runners do), which would make
    /// them silently pending forever. Called first thing in `main`, before any thread exists,
    /// so every thread inherits the unblocked mask.
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The first signal received, or nil.
    var receivedSignal: Int32? {
        let number = received.number.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
