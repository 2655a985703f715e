import Foundation

/// Where the CLI writes. Messages for people go to stderr (stdout is kept for `--json`), and
/// both are written unbuffered so nothing is lost if the process dies.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Colour and bold only on a terminal, and never when NO_COLOR is set to anything
    /// (https://no-color.org). Pipes and logs get plain text.
    static var stderrColour: Bool {
        stderrIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    enum Style: String {
        case bold = "1"
        case red = "31"
        case yellow = "33"
    }

    static func styled(_ text: String, _ style: Style, when enabled: Bool) -> String {
        enabled ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Byte counts as people read them: 1.2 MB, 830 kB (decimal, as `ls -h --si`).
    static func bytes(_ count: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}

/// Exit codes, documented in `--help` and the README.
enum ExitCode: Equatable {
    case ok, itemsFailed, usage, feedFailed, cacheFailed
    /// Stopped by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM), as shells report it.
    case signalled(Int32)

    var rawValue: Int32 {
        switch self {
        case .ok: 0
        case .itemsFailed: 1
        case .usage: 2
        case .feedFailed: 3
        case .cacheFailed: 4
        case .signalled(let signal): 128 + signal
        }
    }
}
