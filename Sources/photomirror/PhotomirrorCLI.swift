import Foundation
import PMLoading

/// Entry point: parse argv, run one command, map its result to an exit code. The library
/// below knows nothing of argv or terminals.
@main
struct PhotomirrorCLI {
    static func main() async {
        SignalWatcher.unblockTerminationSignals()
        CurlGlobal.initialize()
        let words = Array(CommandLine.arguments.dropFirst())
        let code: ExitCode
        do {
            code = try await run(words)
        } catch {
            let help = error.command.map { "photomirror help \($0)" } ?? "photomirror help"
            Output.err("photomirror: \(error.message)\nRun `\(help)` for usage.\n")
            code = .usage
        }
        exit(code.rawValue)
    }

    static func run(_ words: [String]) async throws(UsageError) -> ExitCode {
        guard let command = words.first else {
            Output.err(HelpText.main + "\n")
            return .usage
        }
        let rest = Array(words.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { return help(command) }
        do {
            return try await run(command, rest)
        } catch {
            var error = error
            if error.command == nil, CommandSpec.named(command) != nil { error.command = command }
            throw error
        }
    }

    private static func run(_ command: String, _ rest: [String]) async throws(UsageError) -> ExitCode {
        switch command {
        case "sync": return try await SyncCommand(rest).run()
        case "watch": return try await WatchCommand(rest).run()
        case "thumb": return try await ThumbCommand(rest).run()
        case "verify": return try await VerifyCommand(rest).run()
        case "prune": return try await PruneCommand(rest).run()
        case "stats": return try await StatsCommand(rest).run()
        case "serve": return try await ServeCommand(rest).run()
        case "feed": return try await FeedCommand(rest).run()
        case "config": return try await ConfigCommand(rest).run()
        case "generate": return try GenerateCommand(rest).run()
        case "help", "--help", "-h":
            guard let topic = rest.first, topic != "help" else { return help("") }
            guard CommandSpec.named(topic) != nil else {
                throw UsageError("no help for \"\(topic)\": the commands are \(CommandSpec.all.map(\.name).joined(separator: ", "))")
            }
            return help(topic)
        case "--version", "-V", "version":
            Output.out("photomirror \(Version.string)\n")
            return .ok
        default: throw UsageError("unknown command \"\(command)\"")
        }
    }

    static func help(_ command: String) -> ExitCode {
        Output.out((CommandSpec.named(command).map(HelpText.command) ?? HelpText.main) + "\n")
        return .ok
    }
}

enum Version {
    static let string = "0.1.0"
}
