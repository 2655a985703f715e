import Foundation
import PMCache
import PhotoMirror

/// The settings a command on a cache runs with: its flags over the cache's config.json over the
/// user's (`SettingsFiles`).
enum SettingsOption {
    /// A user config or flag value that cannot be used is a usage error (exit 2, before any cache
    /// is touched); the cache's config.json that cannot be read is the cache's error (exit 4),
    /// returned for the command to report.
    static func resolve(_ flags: CacheConfig, cacheRoot: String) throws(UsageError) -> Result<EffectiveSettings, CacheCommandError> {
        let files = SettingsFiles(cacheRoot: cacheRoot, environment: ProcessInfo.processInfo.environment)
        do {
            return .success(try files.resolve(flags: flags))
        } catch {
            switch error {
            case .cache(let message): return .failure(CacheCommandError(description: message))
            case .user(let message): throw UsageError(message)
            }
        }
    }
}
