import Foundation
import PMCache
import PMSupport

/// Writes keys into a cache's config.json, keeping its other keys, atomically (temp file +
/// rename); a file that would not change is left as it is, byte for byte.
public enum CacheConfigFile {
    /// The settings a sync's flags record, so the next plain sync keeps them: what the cache holds
    /// (sizes, scales, their format, quality and fit) and how it is fetched (jobs, per-host, rate, user agent). Limits (`--max`,
    /// prune's `--max-age`, `--min-bytes`, `--min-pixels`) act for their run only: one evicting
    /// prune must not become every sync's rule unasked; write them into config.json to keep them.
    public static func sticky(_ flags: CacheConfig) -> [String: Any] {
        var values: [String: Any] = [:]
        if let sizes = flags.sizes { values["sizes"] = sizes }
        if let scales = flags.scales { values["scales"] = scales }
        if let format = flags.format { values["format"] = format }
        if let quality = flags.quality { values["quality"] = quality }
        if let fit = flags.fit { values["fit"] = fit }
        if let jobs = flags.jobs { values["jobs"] = jobs }
        if let perHost = flags.perHost { values["per_host"] = perHost }
        if let rate = flags.rate { values["rate"] = rate }
        if let userAgent = flags.userAgent { values["user_agent"] = userAgent }
        return values
    }

    /// Sets `values` in the cache's config.json; `what` names them in an error.
    public static func record(_ values: [String: Any], what: String, cacheRoot: String) throws(CacheCommandError) {
        guard !values.isEmpty else { return }
        let layout = CacheLayout(root: cacheRoot)
        let path = layout.absolute(CacheConfig.fileName)
        var settings: [String: Any] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw CacheCommandError(description: "\(path): not a JSON object of settings; \(what) not recorded")
            }
            settings = object
        }
        let before = settings as NSDictionary
        settings.merge(values) { $1 }
        if FileManager.default.fileExists(atPath: path), before.isEqual(to: settings) { return }
        do {
            let json = try JSONSerialization.data(withJSONObject: settings,
                                                  options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            try AtomicFile.makeDirectories(layout.root)
            try AtomicFile.write([UInt8](json) + [UInt8(ascii: "\n")], to: path)
        } catch {
            throw CacheCommandError(description: "cannot record \(what) in \(path): \(error)")
        }
    }
}
