import Foundation
import PhotoMirror
import Synchronization

/// One live status line on a terminal's stderr, redrawn at most ten times a second.
final class ProgressLine: Sendable {
    private struct State {
        var lastDraw = 0.0
        var started = Date().timeIntervalSince1970
        var drawn = false
    }

    private let state = Mutex(State())
    private let colour = ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true

    func update(_ progress: SyncProgress) {
        let now = Date().timeIntervalSince1970
        let text: String? = state.withLock { state in
            guard progress.done == progress.total || now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            state.drawn = true
            let elapsed = max(now - state.started, 0.001)
            let rate = Double(progress.done) / elapsed
            let remaining = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            var line = "\(progress.done)/\(progress.total) images"
            if progress.failed > 0 { line += ", \(progress.failed) failed" }
            line += " · \(Output.bytes(progress.bytes)) · \(Int(rate.rounded()))/s"
            if progress.done < progress.total { line += " · ETA \(Int(remaining.rounded(.up)))s" }
            return line
        }
        guard let text else { return }
        let styled = colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text
        Output.err("\r\u{1B}[K" + styled)
    }

    func finish() {
        if state.withLock({ $0.drawn }) { Output.err("\r\u{1B}[K") }
    }
}
