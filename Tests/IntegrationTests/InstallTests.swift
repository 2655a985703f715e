import Foundation
import Testing

/// `Scripts/install` into a temporary prefix: the binary runs, `man -l` renders its page, each
/// shell accepts its completions, and every flag `--help` shows is in all of them.
@Suite(.serialized) struct InstallTests {
    static let commands = ["sync", "watch", "thumb", "verify", "prune", "stats", "serve", "feed", "generate"]

    struct Installed {
        let prefix: URL
        var binary: String { prefix.appendingPathComponent("bin/photomirror").path }
        func file(_ path: String) throws -> String {
            try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
        }
    }

    func install() throws -> Installed {
        let prefix = try Paths.temporaryFolder().appendingPathComponent("prefix")
        let result = try Command.run("/bin/bash", [Paths.scripts.appendingPathComponent("install").path,
                                                   "--binary", Paths.binary.path, prefix.path])
        #expect(result.status == 0, "\(result.stderr)")
        return Installed(prefix: prefix)
    }

    /// Every `--flag` a command's help names anywhere, and the short flags its OPTIONS list
    /// (`-o, --output DIR`); a short word in prose (`man -l`) is another program's.
    func helpFlags(_ command: String) throws -> Set<String> {
        let help = try Photomirror().run([command, "--help"]).stdout
        var flags = Set<String>()
        let long = try NSRegularExpression(pattern: "(?<![\\w-])--[a-z][a-z-]*")
        for match in long.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
            if let range = Range(match.range, in: help) { flags.insert(String(help[range])) }
        }
        for line in help.split(separator: "\n") where line.hasPrefix("  -") && !line.hasPrefix("  --") {
            flags.insert(String(line.dropFirst(2).prefix(2)))
        }
        return flags
    }

    @Test func installedBinaryRunsAndManPageRenders() throws {
        let installed = try install()
        let version = try Command.run(installed.binary, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("photomirror "))
        let page = installed.prefix.appendingPathComponent("share/man/man1/photomirror.1").path
        guard let man = Command.find("man") else {
            print("InstallTests: man is not installed (Scripts/setup --for-tests installs man-db); page not rendered")
            return
        }
        let rendered = try Command.run(man, ["-l", page], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": "0"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        // man overstrikes bold text (X backspace X) when its output is not a terminal.
        let text = rendered.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        #expect(text.contains("PHOTOMIRROR(1)"))
        #expect(text.contains("EXIT CODES"))
        #expect(text.contains("--max-images-per-item"))
        if let groff = Command.find("groff") {
            let warnings = try Command.run(groff, ["-man", "-ww", "-z", page])
            #expect(warnings.stderr.isEmpty, "groff warns: \(warnings.stderr)")
        }
    }

    @Test func manPageHasExamplesFilesAndTheWholeEnvironmentWithoutWarnings() throws {
        let installed = try install()
        let page = installed.prefix.appendingPathComponent("share/man/man1/photomirror.1").path
        let roff = try installed.file("share/man/man1/photomirror.1")
        for section in ["EXAMPLES", "FILES", "ENVIRONMENT", "SEE ALSO"] {
            #expect(roff.contains(".SH \(section)\n") || roff.contains(".SH \"\(section)\"\n"), "no \(section)")
        }
        let environment = roff.components(separatedBy: ".SH ENVIRONMENT").last?.components(separatedBy: ".SH ").first ?? ""
        for variable in ["PHOTOMIRROR_CACHE", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                         "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "CURL_CA_BUNDLE",
                         "SSL_CERT_FILE", "NO_COLOR", "MARVEL_PUBLIC_KEY", "MARVEL_PRIVATE_KEY", "COLUMNS"] {
            #expect(environment.contains(variable), "ENVIRONMENT lacks \(variable)")
        }
        // SEE ALSO names only what is installed: no file of photomirror's sources.
        let seeAlso = roff.components(separatedBy: ".SH SEE ALSO").last ?? ""
        #expect(!seeAlso.contains(".md"), "\(seeAlso)")
        for unit in ["photomirror\\-sync.service", "photomirror\\-sync.timer", "photomirror\\-watch.service"] {
            #expect(seeAlso.contains(unit), "\(seeAlso)")
            let file = unit.replacingOccurrences(of: "\\-", with: "-")
            #expect(FileManager.default.fileExists(atPath: installed.prefix.appendingPathComponent("lib/systemd/system/\(file)").path))
        }
        let groff = try #require(Command.find("groff"), "groff is needed to check the page (Scripts/setup --for-tests)")
        let warnings = try Command.run(groff, ["-man", "-ww", "-z", page])
        #expect(warnings.status == 0 && warnings.stderr.isEmpty, "groff warns: \(warnings.stderr)")
        if let man = Command.find("man") {
            let checked = try Command.run(man, ["--warnings", "-l", page], environment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"])
            #expect(checked.status == 0 && checked.stderr.isEmpty, "man --warnings: \(checked.stderr)")
            let text = checked.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            #expect(text.contains("EXAMPLES") && text.contains("XDG_CONFIG_HOME"))
        }
    }

    /// `--uninstall` removes every file an install wrote and nothing else.
    @Test func uninstallRemovesExactlyWhatInstallWrote() throws {
        let installed = try install()
        let bystander = installed.prefix.appendingPathComponent("bin/someone-elses-tool")
        try Data("#!/bin/sh\n".utf8).write(to: bystander)
        let result = try Command.run("/bin/bash", [Paths.scripts.appendingPathComponent("install").path, "--uninstall",
                                                   installed.prefix.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("removed 8 files"), "\(result.stderr)")
        let left = FileManager.default.enumerator(atPath: installed.prefix.path)?.compactMap { $0 as? String } ?? []
        let files = left.filter { path in
            var folder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: installed.prefix.appendingPathComponent(path).path, isDirectory: &folder)
            return !folder.boolValue
        }
        #expect(files == ["bin/someone-elses-tool"], "left behind: \(files)")
        let again = try Command.run("/bin/bash", [Paths.scripts.appendingPathComponent("install").path, "--uninstall",
                                                  installed.prefix.path])
        #expect(again.status == 0 && again.stderr.contains("removed 0 files"), "\(again.stderr)")
    }

    @Test func everyHelpFlagIsInTheManPageAndEveryCompletion() throws {
        let installed = try install()
        let man = try installed.file("share/man/man1/photomirror.1")
        let bash = try installed.file("share/bash-completion/completions/photomirror")
        let zsh = try installed.file("share/zsh/site-functions/_photomirror")
        let fish = try installed.file("share/fish/vendor_completions.d/photomirror.fish")
        var checked = 0
        for command in Self.commands {
            #expect(man.contains("photomirror \(command)"), "man page lacks \(command)")
            for flag in try helpFlags(command) where flag != "--help" {
                checked += 1
                let name = flag.drop { $0 == "-" }
                #expect(man.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "man page lacks \(command) \(flag)")
                #expect(bash.contains(flag), "bash completion lacks \(command) \(flag)")
                #expect(zsh.contains(flag), "zsh completion lacks \(command) \(flag)")
                let fishFlag = flag.hasPrefix("--") ? "-l \(name)" : "-s \(name)"
                #expect(fish.contains("__fish_seen_subcommand_from \(command)' \(fishFlag)")
                        || fish.contains("__fish_seen_subcommand_from \(command)' -l ") && fish.contains(fishFlag),
                        "fish completion lacks \(command) \(flag)")
            }
        }
        #expect(checked > 40, "only \(checked) flags found in --help")
    }

    @Test func bashAcceptsAndCompletes() throws {
        let installed = try install()
        let script = installed.prefix.appendingPathComponent("share/bash-completion/completions/photomirror").path
        let accepted = try Command.run("/bin/bash", ["-c", "source '\(script)' && complete -p photomirror"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("photomirror"))
        let completed = try Command.run("/bin/bash", ["-c", """
            source '\(script)'
            COMP_WORDS=(photomirror sync --max-im); COMP_CWORD=2; _photomirror; echo "${COMPREPLY[*]}"
            COMP_WORDS=(photomirror ge); COMP_CWORD=1; _photomirror; echo "${COMPREPLY[*]}"
            COMP_WORDS=(photomirror generate ''); COMP_CWORD=2; _photomirror; echo "${COMPREPLY[*]}"
            """])
        let lines = completed.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["--max-images-per-item", "generate", "man bash zsh fish"], "\(completed.stdout) \(completed.stderr)")
    }

    @Test func zshAndFishAcceptTheirCompletions() throws {
        let installed = try install()
        if let zsh = Command.find("zsh") {
            let script = installed.prefix.appendingPathComponent("share/zsh/site-functions/_photomirror").path
            let parsed = try Command.run(zsh, ["-n", script])
            #expect(parsed.status == 0, "\(parsed.stderr)")
        } else {
            print("InstallTests: zsh is not installed (Scripts/setup --for-tests installs it); its completion not checked")
        }
        if let fish = Command.find("fish") {
            let script = installed.prefix.appendingPathComponent("share/fish/vendor_completions.d/photomirror.fish").path
            let completed = try Command.run(fish, ["--no-config", "-c", "source '\(script)'; complete -C 'photomirror sync --user-a'"])
            #expect(completed.status == 0, "\(completed.stderr)")
            #expect(completed.stdout.contains("--user-agent"), "\(completed.stdout)")
        } else {
            print("InstallTests: fish is not installed (Scripts/setup --for-tests installs it); its completion not checked")
        }
    }

    @Test func systemdUnitsNameTheInstalledBinary() throws {
        let installed = try install()
        for unit in ["photomirror-sync.service", "photomirror-watch.service"] {
            let text = try installed.file("lib/systemd/system/\(unit)")
            #expect(text.contains("ExecStart=\(installed.binary) "), "\(unit): \(text)")
            #expect(!text.contains("@BINDIR@"))
        }
        #expect(try installed.file("lib/systemd/system/photomirror-sync.timer").contains("OnCalendar="))
    }

    /// `watch` exits 3 when every feed is gone and 2 on a bad config.json; restarting it a minute
    /// later ends the same way, for ever.
    @Test func theWatchUnitDoesNotRestartOnExitsARestartCannotFix() throws {
        let text = try install().file("lib/systemd/system/photomirror-watch.service")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") })
        let codes = Set(line.dropFirst("RestartPreventExitStatus=".count).split(separator: " "))
        #expect(codes.isSuperset(of: ["2", "3"]), "\(line)")
        #expect(text.contains("Restart=on-failure"))
    }
}
