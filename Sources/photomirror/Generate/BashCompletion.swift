/// A bash completion script: commands, each command's flags, files or folders where a flag
/// takes one, fixed words where it takes one of them.
enum BashCompletion {
    static func render() -> String {
        let commands = (CommandSpec.all.map(\.name) + ["help"]).joined(separator: " ")
        var script = """
        # bash completion for photomirror (photomirror generate bash)
        _photomirror() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            if [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W '\(commands) --help --version' -- "$cur"))
                return
            fi
            case ${COMP_WORDS[1]} in

        """
        for command in CommandSpec.all {
            script += "        \(command.name))\n            case $prev in\n"
            for flag in command.flags where flag.takesValue {
                script += "                \(flagWords(flag))) \(valueCompletion(flag.kind)); return ;;\n"
            }
            script += "            esac\n"
            let flags = (command.flags.map { "--\($0.name)" } + command.flags.compactMap { $0.short.map { "-\($0)" } }
                + ["--help"]).joined(separator: " ")
            script += "            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '\(flags)' -- \"$cur\")); return; fi\n"
            script += "            \(operandCompletion(command.operandCompletion))\n            ;;\n"
        }
        script += """
                help) COMPREPLY=($(compgen -W '\(commands)' -- "$cur")) ;;
            esac
        }
        complete -F _photomirror photomirror

        """
        return script
    }

    private static func flagWords(_ flag: Flag) -> String {
        (["--\(flag.name)"] + (flag.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
    }

    private static func valueCompletion(_ kind: Flag.Kind) -> String {
        switch kind {
        case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .directory: "COMPREPLY=($(compgen -d -- \"$cur\"))"
        case .choice(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
        default: "COMPREPLY=()"
        }
    }

    private static func operandCompletion(_ operands: CommandSpec.OperandCompletion) -> String {
        switch operands {
        case .none: "COMPREPLY=()"
        case .files: "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .words(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
        }
    }
}
