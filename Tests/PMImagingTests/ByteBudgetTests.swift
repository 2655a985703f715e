import Foundation
import Synchronization
import Testing
@testable import PMImaging

/// Whole-image decode buffers take their bytes from one budget, so those held at once stay
/// within it (or are one buffer, when it alone is larger).
@Suite struct ByteBudgetTests {
    /// Runs `body(index)` on `count` threads of their own and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread {
                body(index)
                done.signal()
            }.start()
        }
        for _ in 0..<count { done.wait() }
    }

    @Test func sharesThatDoNotFitTogetherNeverOverlap() {
        let budget = ByteBudget(capacity: 100)
        let most = Mutex(0)
        Self.onThreads(4) { _ in
            for _ in 0..<5 {
                budget.withShare(of: 60) {
                    most.withLock { $0 = max($0, budget.held) }
                    Thread.sleep(forTimeInterval: 0.002)
                }
            }
        }
        #expect(most.withLock { $0 } == 60)
        #expect(budget.held == 0)
    }

    @Test func sharesThatFitRunTogether() {
        let budget = ByteBudget(capacity: 100)
        let inside = Mutex(0)
        let met = Mutex(0)
        Self.onThreads(2) { _ in
            budget.withShare(of: 50) {
                inside.withLock { $0 += 1 }
                // Both are let in at once: each sees the other arrive (the wait only catches a hang).
                let deadline = Date().addingTimeInterval(30)
                while inside.withLock({ $0 }) < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                if inside.withLock({ $0 }) == 2 { met.withLock { $0 += 1 } }
            }
        }
        #expect(met.withLock { $0 } == 2)
    }

    @Test func aShareLargerThanTheBudgetRunsAlone() {
        let budget = ByteBudget(capacity: 100)
        let seen = Mutex<[Int]>([])
        Self.onThreads(3) { index in
            budget.withShare(of: index == 0 ? 500 : 30) {
                seen.withLock { $0.append(budget.held) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let held = seen.withLock { $0 }
        #expect(held.count == 3)
        #expect(held.allSatisfy { $0 == 500 || $0 <= 100 }, "\(held)")
    }

    @Test func throwsThroughAndGivesTheShareBack() {
        let budget = ByteBudget(capacity: 100)
        #expect(throws: ImageError("boom")) {
            try budget.withShare(of: 80) { () throws(ImageError) in throw ImageError("boom") }
        }
        #expect(budget.held == 0)
    }

    @Test func onlyLargeBuffersTakeTheGate() {
        // The budget is the process's: other tests decoding large images hold shares of it at
        // the same time, so what a small buffer holds is read off the rule, not off the budget.
        #expect(!LargeDecodeGate.takesShare(LargeDecodeGate.thresholdBytes - 1))
        #expect(LargeDecodeGate.takesShare(LargeDecodeGate.thresholdBytes))
        // This one holds at least its own share.
        let bytes = LargeDecodeGate.thresholdBytes
        #expect(LargeDecodeGate.run(holding: bytes) { LargeDecodeGate.budget.held } >= bytes)
    }
}
