/// What a command is, for `--help`, the man page and completions: its synopsis, prose and the
/// flags it accepts (the same list its parser reads).
struct CommandSpec: Sendable {
    let name: String
    /// What follows `photomirror <name>` in the synopsis.
    let synopsis: String
    /// One line for the overview of all commands.
    let tagline: String
    /// Paragraphs before OPTIONS; blank lines separate them.
    let about: String
    let flags: [Flag]
    /// Sections after OPTIONS (`OUTPUT`, value formats, exit codes): a line in capitals starts a section.
    var notes = ""
    /// Operands a shell may complete: files, or one of fixed words.
    var operandCompletion: OperandCompletion = .none

    enum OperandCompletion: Sendable {
        case none, files
        case words([String])
    }
}
