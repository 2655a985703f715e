/// One command-line option, defined once. Parsing, validation, `--help`, the man page and the
/// shell completions are all driven from these definitions (as ripgrep's `defs.rs` does), so
/// none of them can drift from the others. A name means one thing per command; where two
/// commands give a name different meanings (`--jobs` of sync and of thumb) each meaning is its
/// own definition.
struct Flag: Sendable {
    /// What a flag's value must look like. Checked when the command line is read, so a bad
    /// value is a usage error naming the flag whichever command reads it and however late.
    enum Kind: Sendable {
        /// Takes no value.
        case toggle
        case text
        /// Text sent in an HTTP header: 1–512 bytes, no control characters (they would end the
        /// header line early).
        case headerText
        case integer(ClosedRange<Int>)
        /// A positive number of seconds.
        case seconds
        /// A positive decimal number: 0.5, 2, 10.
        case positiveNumber
        /// Zero or more seconds.
        case secondsOrZero
        /// 500MB, 2GiB, 750000000 (`ByteSize`).
        case byteSize
        /// 30m, 12h, 7d (`AgeLimit`).
        case duration
        /// WxH (`ThumbnailSize`).
        case thumbnailSize
        /// WxH, any sides from 1 (`PixelSize`).
        case pixelSize
        /// A duration back from now, or a date (`ItemSelection.since`).
        case since
        case file
        case directory
        case choice([String])
    }

    let name: String
    var short: Character?
    /// The value's name in `--help` (`N`, `SECONDS`); nil for a toggle.
    var placeholder: String?
    let kind: Kind
    var repeatable = false
    /// One line, for shell completions.
    let summary: String
    /// The `--help` and man page paragraph; plain sentences, wrapped when shown.
    let help: String

    var takesValue: Bool {
        if case .toggle = kind { return false }
        return true
    }

    /// `--jobs N`, `-o, --output DIR`.
    var usage: String {
        let long = placeholder.map { "--\(name) \($0)" } ?? "--\(name)"
        return short.map { "-\($0), \(long)" } ?? long
    }
}
