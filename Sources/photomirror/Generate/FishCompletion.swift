/// Fish completions: `complete` lines per command and flag.
enum FishCompletion {
    static func render() -> String {
        let names = (CommandSpec.all.map(\.name) + ["help"]).joined(separator: " ")
        var script = "# fish completion for photomirror (photomirror generate fish)\n"
        script += "complete -c photomirror -f\n"
        script += "complete -c photomirror -n 'not __fish_seen_subcommand_from \(names)' -l version -d 'print the version'\n"
        for command in CommandSpec.all {
            script += "complete -c photomirror -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(quoted(command.tagline))\n"
        }
        script += "complete -c photomirror -n 'not __fish_seen_subcommand_from \(names)' -a help -d 'show help'\n"
        for command in CommandSpec.all {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            for flag in command.flags {
                var line = "complete -c photomirror \(condition) -l \(flag.name)"
                if let short = flag.short { line += " -s \(short)" }
                if flag.takesValue { line += " -r" + valueArguments(flag.kind) }
                script += line + " -d \(quoted(flag.summary))\n"
            }
            script += "complete -c photomirror \(condition) -l help -d 'show help'\n"
            switch command.operandCompletion {
            case .none: break
            case .files: script += "complete -c photomirror \(condition) -F\n"
            case .words(let words): script += "complete -c photomirror \(condition) -a \(quoted(words.joined(separator: " ")))\n"
            }
        }
        return script
    }

    private static func valueArguments(_ kind: Flag.Kind) -> String {
        switch kind {
        case .file: " -F"
        case .directory: " -a '(__fish_complete_directories)'"
        case .choice(let words): " -a \(quoted(words.joined(separator: " ")))"
        default: ""
        }
    }

    private static func quoted(_ text: String) -> String {
        var escaped = "'"
        for character in text {
            if character == "'" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "'"
    }
}
