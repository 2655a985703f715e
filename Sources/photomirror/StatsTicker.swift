import Foundation
import PhotoMirror
import Synchronization

/// Progress for logs (cron, journald, a file): when stderr is not a terminal, one plain line
/// every `--stats-every` (as rclone's `--stats`), so a long sync is seen to move. A terminal gets
/// `ProgressLine` instead.
final class StatsTicker: Sendable {
    /// A class, so that the ticking task and the sync's callback share the one value.
    private final class Latest: Sendable {
        let progress = Mutex<SyncProgress?>(nil)
    }

    private let latest = Latest()
    private let ticking: Task<Void, Never>

    init(every seconds: Double) {
        let latest = latest
        let started = Date()
        ticking = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                guard !Task.isCancelled else { return }
                Output.err(Self.line(latest.progress.withLock { $0 }, elapsed: Date().timeIntervalSince(started)))
            }
        }
    }

    func update(_ progress: SyncProgress) { latest.progress.withLock { $0 = progress } }

    func stop() { ticking.cancel() }

    /// "progress: 12/40 images · 1 failed · 3.4 MB at 1.1 MB/s · ETA 9s · 12s elapsed"
    static func line(_ progress: SyncProgress?, elapsed: Double) -> String {
        let elapsedText = ProgressLine.duration(elapsed) + " elapsed"
        guard let progress else { return "progress: reading feeds · \(elapsedText)\n" }
        return "progress: " + ProgressLine.render(progress, elapsed: elapsed) + " · \(elapsedText)\n"
    }
}

/// `watch --stats-every`: a `StatsTicker` for each round, from its start to its line, so a log
/// shows a long round moving and nothing between rounds (which may be hours apart).
final class RoundStatsTicker: Sendable {
    private let every: Double
    private let current = Mutex<StatsTicker?>(nil)

    init(every seconds: Double) { every = seconds }

    func roundStarts() {
        let ticker = StatsTicker(every: every)
        current.withLock { previous in
            previous?.stop()
            previous = ticker
        }
    }

    func update(_ progress: SyncProgress) { current.withLock { $0?.update(progress) } }

    func roundEnds() { current.withLock { ticker in ticker?.stop(); ticker = nil } }
}
