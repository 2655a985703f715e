import PMCache

/// The two config files a command on a cache reads: the cache's `<cache>/config.json`, and the
/// user's `$XDG_CONFIG_HOME/photomirror/config.json` (else `~/.config/photomirror/config.json`),
/// which gives defaults for every cache.
public struct SettingsFiles: Sendable {
    public var cache: String
    /// Nil when neither XDG_CONFIG_HOME nor HOME says where it is.
    public var user: String?

    public init(cacheRoot: String, environment: [String: String]) {
        cache = CacheLayout(root: cacheRoot).absolute(CacheConfig.fileName)
        user = Self.userFile(environment)
    }

    /// As the XDG base directory spec says: a relative XDG_CONFIG_HOME is ignored.
    public static func userFile(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/photomirror/" + CacheConfig.fileName }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/photomirror/" + CacheConfig.fileName }
        return nil
    }

    /// A config file that cannot be read: the cache's is the cache's error (exit 4), the user's a
    /// mistake to fix before any cache is touched (exit 2).
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case cache(String)
        case user(String)

        public var description: String {
            switch self {
            case .cache(let message), .user(let message): message
            }
        }
    }

    /// The layers below the flags: the cache's settings, then the user's.
    public func layers() throws(Failure) -> [SettingLayer] {
        var layers: [SettingLayer] = []
        do {
            layers.append(SettingLayer(.cache(file: cache), try CacheConfig.load(path: cache, keys: CacheConfig.knownKeys)))
        } catch {
            throw .cache(error.description)
        }
        if let user {
            do {
                layers.append(SettingLayer(.user(file: user), try CacheConfig.load(path: user, keys: CacheConfig.userKeys)))
            } catch {
                throw .user(error.description)
            }
        }
        return layers
    }

    /// The settings with `flags` over both files.
    public func resolve(flags: CacheConfig) throws(Failure) -> EffectiveSettings {
        let layers = [SettingLayer(.flag, flags)] + (try layers())
        do {
            return try EffectiveSettings.resolve(layers)
        } catch {
            if error.fromFlag { throw .user(error.description) }
            let inCache = layers.contains { $0.source.file == cache && error.description.hasPrefix(cache) }
            throw inCache ? .cache(error.description) : .user(error.description)
        }
    }
}
