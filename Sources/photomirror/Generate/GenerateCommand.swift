/// `photomirror generate man|bash|zsh|fish`: the man page or a completion script on stdout.
struct GenerateCommand {
    let target: String

    init(_ words: [String]) throws(UsageError) {
        let arguments = try Arguments(words, flags: CommandSpec.generate.flags)
        let targets = ["man", "bash", "zsh", "fish"]
        guard arguments.operands.count == 1, let target = arguments.operands.first, targets.contains(target) else {
            throw UsageError("generate needs one of: \(targets.joined(separator: ", "))")
        }
        self.target = target
    }

    func run() throws(UsageError) -> ExitCode {
        let text = switch target {
        case "man": ManPage.render()
        case "bash": BashCompletion.render()
        case "zsh": ZshCompletion.render()
        default: FishCompletion.render()
        }
        Output.out(text)
        return .ok
    }
}
