import Foundation
import PMCache
import PhotoMirror

/// `photomirror config`: the settings a sync of the cache would use, and where each came from.
/// Reads the two config files only: touches no cache, creates nothing.
struct ConfigCommand {
    let arguments: Arguments

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.config.flags)
        guard arguments.operands.isEmpty else { throw UsageError("config takes no operands") }
    }

    func run() async throws(UsageError) -> ExitCode {
        let started = Date()
        let root = try CacheOption.resolve(arguments)
        let files = SettingsFiles(cacheRoot: root, environment: ProcessInfo.processInfo.environment)
        let settings: EffectiveSettings
        switch try SettingsOption.resolve(CacheConfig(), cacheRoot: root) {
        case .success(let resolved): settings = resolved
        case .failure(let error):
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        let listing = SettingsListing(settings)
        if arguments.has(.json) {
            Output.out(JSONDocument.encode(ConfigDocument(
                envelope: .init(command: "config", started: started), cache: root,
                files: .init(cache: files.cache, user: files.user), settings: listing)))
        } else {
            Output.out(Self.text(listing, files: files))
        }
        return .ok
    }

    static func text(_ listing: SettingsListing, files: SettingsFiles) -> String {
        func state(_ path: String?) -> String {
            guard let path else { return "none (neither XDG_CONFIG_HOME nor HOME is set)" }
            return FileManager.default.fileExists(atPath: path) ? path : "\(path) (absent)"
        }
        var text = "cache config   \(state(files.cache))\nuser config    \(state(files.user))\n\n"
        for entry in listing.entries {
            let name = entry.key.padding(toLength: 15, withPad: " ", startingAt: 0)
            let value = entry.value.text
            text += name + value.padding(toLength: max(value.count, 24), withPad: " ", startingAt: 0) + " " + entry.source + "\n"
        }
        return text
    }
}

/// `config --json`.
struct ConfigDocument: Encodable {
    struct Files: Encodable {
        let cache: String
        let user: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cache, forKey: .cache)
            try container.encode(user, forKey: .user)
        }

        enum CodingKeys: String, CodingKey { case cache, user }
    }

    let envelope: JSONEnvelope
    let cache: String
    let files: Files
    let settings: SettingsListing

    func encode(to encoder: any Encoder) throws {
        try envelope.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cache, forKey: .cache)
        try container.encode(files, forKey: .files)
        try container.encode(settings, forKey: .settings)
    }

    enum CodingKeys: String, CodingKey { case cache, files, settings }
}
