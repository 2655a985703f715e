import Glibc

/// The width help text wraps at: `COLUMNS` when set (as less, ls and man honour it), else the
/// terminal's own when stdout is one, else 80. Never under 40, where a two-column option list
/// no longer fits.
enum TerminalWidth {
    static let current: Int = {
        if let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 {
            return max(columns, 40)
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(Int(size.ws_col), 40)
        }
        return 80
    }()
}
