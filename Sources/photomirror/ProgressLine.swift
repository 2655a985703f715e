import Foundation
import PhotoMirror
import Synchronization

/// One live status line on a terminal's stderr, redrawn in place (carriage return, erase line)
/// at most ten times a second. Used only when stderr is a terminal; pipes get plain lines.
final class ProgressLine: Sendable {
    private struct State {
        var lastDraw = 0.0
        var started = Date().timeIntervalSince1970
        var drawn = false
    }

    private let state = Mutex(State())
    private let colour = Output.stderrColour
    /// A line longer than the terminal wraps, and `\r` then redraws only its last part.
    private let width = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").map { max($0 - 1, 20) } ?? 79

    func update(_ progress: SyncProgress) {
        let now = Date().timeIntervalSince1970
        let text: String? = state.withLock { state in
            guard progress.done == progress.total || now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            state.drawn = true
            return Self.render(progress, elapsed: now - state.started)
        }
        guard let text else { return }
        Output.err("\r\u{1B}[K" + Output.styled(String(text.prefix(width)), .bold, when: colour))
    }

    /// Clears the line so the summary starts on a clean one.
    func finish() {
        if state.withLock({ $0.drawn }) { Output.err("\r\u{1B}[K") }
    }

    /// "12/40 images · 1 failed · 3.4 MB at 1.1 MB/s · ETA 9s"
    static func render(_ progress: SyncProgress, elapsed: Double) -> String {
        let elapsed = max(elapsed, 0.001)
        var line = "\(progress.done)/\(progress.total) \(progress.total == 1 ? "image" : "images")"
        if progress.failed > 0 { line += " · \(progress.failed) failed" }
        line += " · \(Output.bytes(progress.bytes)) at \(Output.bytes(Int(Double(progress.bytes) / elapsed)))/s"
        let rate = Double(progress.done) / elapsed
        if progress.done < progress.total, rate > 0 {
            line += " · ETA \(duration(Double(progress.total - progress.done) / rate))"
        }
        return line
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h\(String(format: "%02d", whole / 60 % 60))m"
    }
}
