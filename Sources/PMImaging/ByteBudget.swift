import Foundation
import Synchronization

/// A budget of bytes that blocking work takes a share of while it runs. Work waits, in the order
/// it asked, until its share fits beside what others hold; a share larger than the whole budget
/// is granted once nothing else holds any, so it runs alone rather than never.
final class ByteBudget: Sendable {
    let capacity: Int

    private struct State {
        var held = 0
        var nextTicket = 0
        var serving = 0
    }

    private let state = Mutex(State())
    // Held around every change of `state`, so a waiter between its check and its `wait()`
    // cannot miss a release.
    private let changed = NSCondition()

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Runs `body` holding `bytes` of the budget; blocks the calling thread until they fit.
    func withShare<T, E: Error>(of bytes: Int, _ body: () throws(E) -> T) throws(E) -> T {
        acquire(bytes)
        defer { release(bytes) }
        return try body()
    }

    /// The bytes held now.
    var held: Int { state.withLock { $0.held } }

    private func acquire(_ bytes: Int) {
        changed.lock()
        defer { changed.unlock() }
        let ticket = state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        while !state.withLock({ state in
            guard state.serving == ticket, state.held == 0 || state.held + bytes <= capacity else { return false }
            state.held += bytes
            state.serving += 1
            return true
        }) {
            changed.wait()
        }
        changed.broadcast()  // the next in line may fit beside this one
    }

    private func release(_ bytes: Int) {
        changed.lock()
        state.withLock { $0.held -= bytes }
        changed.broadcast()
        changed.unlock()
    }
}
