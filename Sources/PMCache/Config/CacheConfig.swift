import Foundation
import PMSupport

/// Settings kept with a cache, in `<cache>/config.json`, e.g. `{"max_size": "500MB", "sizes":
/// ["120x80"], "scales": [1, 2]}`; the user's `config.json` (`SettingsFiles`) holds the same keys
/// but `store`, as defaults for every cache. Optional: a cache without the file has no settings.
/// Unknown keys are refused rather than ignored, so a typo like `max-size` does not silently
/// leave the cache unbounded. Values are checked here as far as this module can (a size's shape,
/// a count's range); `nil` is a key not given.
public struct CacheConfig: Sendable, Equatable {
    public static let fileName = "config.json"
    public static let knownKeys = ["fit", "format", "gallery_title", "jobs", "max_age", "max_size", "min_bytes", "min_pixels",
                                   "per_host", "quality",
                                   "rate", "scales", "sizes", "store", "user_agent"]
    /// The user's file gives defaults for every cache; a store is where one cache's files are,
    /// and two caches sharing it would describe the same objects twice.
    public static let userKeys = knownKeys.filter { $0 != "store" }

    /// Bound on the cache's disk use that every sync enforces (`sync --max` overrides it).
    public var maxSize: Int?
    /// Where the cache's files live when not in its folder (`--store` overrides it), as written.
    public var store: String?
    /// Thumbnail sizes as written (`"120x80"`), the first the gallery's.
    public var sizes: [String]?
    /// Multiples of the first size also made (`--scales`).
    public var scales: [Int]?
    public var jobs: Int?
    public var perHost: Int?
    /// Requests a second to one host.
    public var rate: Double?
    public var userAgent: String?
    /// Seconds an image no sync listed is kept by a prune (`prune --max-age`).
    public var maxAge: Double?
    /// The gallery's root page title.
    public var galleryTitle: String?
    /// The thumbnails' file format (`ThumbnailFormat`'s names and `jpg`), as written.
    public var format: String?
    /// A lossy format's quality, 1...100.
    public var quality: Int?
    /// `cover` or `contain` (`ThumbnailFit`).
    public var fit: String?
    /// Downloads smaller than this are skipped (`sync --min-bytes`).
    public var minBytes: Int?
    /// Downloads whose declared width or height is under this are skipped (`sync --min-pixels`).
    public var minPixels: PixelSize?

    public init(maxSize: Int? = nil, store: String? = nil) {
        self.maxSize = maxSize
        self.store = store
    }

    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Reads the cache's config; no file means no settings.
    public static func load(layout: CacheLayout) throws(LoadError) -> CacheConfig {
        try load(path: layout.absolute(fileName), keys: knownKeys)
    }

    /// Reads a config file that holds `keys` at most; no file means no settings. Errors name the file.
    public static func load(path: String, keys: [String]) throws(LoadError) -> CacheConfig {
        guard let data = FileManager.default.contents(atPath: path) else { return CacheConfig() }
        do {
            return try parse(data, keys: keys)
        } catch {
            throw LoadError(description: "\(path): \(error.description)")
        }
    }

    public static func parse(_ data: Data, keys: [String] = knownKeys) throws(LoadError) -> CacheConfig {
        guard let settings = try? JSONDecoder().decode([String: ConfigValue].self, from: data) else {
            throw LoadError(description: "not a JSON object of settings (write e.g. {\"max_size\": \"500MB\"})")
        }
        if let unknown = settings.keys.sorted().first(where: { !keys.contains($0) }) {
            let hint = unknown == "store" ? "; a store belongs to one cache: set it in that cache's config.json" : ""
            throw LoadError(description: "unknown setting \"\(unknown)\" (known: \(keys.joined(separator: ", ")))\(hint)")
        }
        var config = CacheConfig()
        let values = ConfigValues(settings)
        config.maxSize = try values.byteSize("max_size")
        config.store = try values.text("store", example: "\"s3://bucket/prefix\"")
        config.sizes = try values.sizes("sizes")
        config.scales = try values.scales("scales")
        config.jobs = try values.integer("jobs", in: 1...256)
        config.perHost = try values.integer("per_host", in: 1...256)
        config.rate = try values.positiveNumber("rate")
        config.userAgent = try values.headerText("user_agent")
        config.maxAge = try values.duration("max_age")
        config.galleryTitle = try values.text("gallery_title", example: "\"Holiday photos\"")
        config.format = try values.choice("format", from: ThumbnailFormat.names)
        config.quality = try values.integer("quality", in: 1...100)
        config.fit = try values.choice("fit", from: ThumbnailFit.allCases.map(\.rawValue))
        config.minBytes = try values.byteSize("min_bytes")
        config.minPixels = try values.pixelSize("min_pixels")
        return config
    }
}
