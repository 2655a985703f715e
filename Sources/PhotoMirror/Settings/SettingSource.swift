import PMCache

/// Where a setting's value came from, in the order they win: a flag, the cache's config.json,
/// the user's config.json, photomirror's own default.
public enum SettingSource: Sendable, Equatable {
    case flag
    case cache(file: String)
    case user(file: String)
    case builtIn

    /// `flag`, `cache`, `user`, `built-in`: the word `config --json` gives.
    public var name: String {
        switch self {
        case .flag: "flag"
        case .cache: "cache"
        case .user: "user"
        case .builtIn: "built-in"
        }
    }

    public var file: String? {
        switch self {
        case .cache(let file), .user(let file): file
        case .flag, .builtIn: nil
        }
    }
}

/// A setting's value and where it came from.
public struct Sourced<Value: Sendable>: Sendable {
    public var value: Value
    public var source: SettingSource

    public init(_ value: Value, from source: SettingSource) {
        self.value = value
        self.source = source
    }
}

/// One source's settings: the flags given, a config file, or none.
public struct SettingLayer: Sendable {
    public var source: SettingSource
    public var config: CacheConfig

    public init(_ source: SettingSource, _ config: CacheConfig) {
        self.source = source
        self.config = config
    }
}
