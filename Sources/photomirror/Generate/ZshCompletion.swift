/// A zsh completion function (`#compdef photomirror`), for a folder on `$fpath` as `_photomirror`.
enum ZshCompletion {
    static func render() -> String {
        var script = "#compdef photomirror\n# zsh completion for photomirror (photomirror generate zsh)\n\n"
        script += "_photomirror() {\n    local -a commands\n    commands=(\n"
        for command in CommandSpec.all {
            script += "        '\(command.name):\(quoted(describe(command.tagline)))'\n"
        }
        script += "        'help:show help'\n    )\n"
        script += "    if (( CURRENT == 2 )); then\n        _describe -t commands 'photomirror command' commands\n        return\n    fi\n"
        script += "    local command=$words[2]\n    shift words\n    (( CURRENT-- ))\n    case $command in\n"
        for command in CommandSpec.all {
            script += "    \(command.name))\n        _arguments -s \\\n"
            for flag in command.flags { script += "            \(spec(flag)) \\\n" }
            script += "            '--help[show help]' \\\n            \(operandSpec(command.operandCompletion))\n        ;;\n"
        }
        script += "    help)\n        _describe -t commands 'photomirror command' commands\n        ;;\n    esac\n}\n\n"
        script += "_photomirror \"$@\"\n"
        return script
    }

    /// `'*--size[thumbnail size]:WxH:'`, `'--cache[cache folder]:DIR:_files -/'`.
    private static func spec(_ flag: Flag) -> String {
        let body = "[\(describe(flag.summary))]"
            + (flag.takesValue ? ":\(describe(flag.placeholder ?? "value")):\(action(flag.kind))" : "")
        if let short = flag.short {
            return "'(-\(short) --\(flag.name))'{-\(short),--\(flag.name)}'\(quoted(body))'"
        }
        return "'\(flag.repeatable ? "*" : "")--\(flag.name)\(quoted(body))'"
    }

    private static func action(_ kind: Flag.Kind) -> String {
        switch kind {
        case .file: "_files"
        case .directory: "_files -/"
        case .choice(let words): "(\(words.joined(separator: " ")))"
        default: ""
        }
    }

    private static func operandSpec(_ operands: CommandSpec.OperandCompletion) -> String {
        switch operands {
        case .none: "'*:feed URL:'"
        case .files: "'*:file:_files'"
        case .words(let words): "'1:what:(\(words.joined(separator: " ")))'"
        }
    }

    /// `[`, `]` and `:` are _arguments syntax.
    private static func describe(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "[]:\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func quoted(_ text: String) -> String {
        var escaped = ""
        for character in text { escaped += character == "'" ? "'\\''" : String(character) }
        return escaped
    }
}
