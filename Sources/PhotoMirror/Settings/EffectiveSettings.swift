import PMCache
import PMImaging
import PMLoading
import PMSupport

/// The settings a command on a cache uses, each from the first source that gives it: flag >
/// cache config > user config > built-in (`resolve`). Pure.
public struct EffectiveSettings: Sendable {
    /// As given, before `scales`: the first is the gallery's.
    public var sizes: Sourced<[ThumbnailSize]>
    public var scales: Sourced<[Int]?>
    public var jobs: Sourced<Int>
    public var perHost: Sourced<Int>
    public var rate: Sourced<Double?>
    public var userAgent: Sourced<String?>
    public var maxSize: Sourced<Int?>
    public var maxAge: Sourced<Double?>
    public var store: Sourced<String?>
    public var galleryTitle: Sourced<String?>
    /// How every size is made: its file format, a lossy format's quality, its fit.
    public var format: Sourced<ThumbnailFormat>
    public var quality: Sourced<Int?>
    public var fit: Sourced<ThumbnailFit>
    /// Downloads left out as icons and spacers (`--min-bytes`, `--min-pixels`); not recorded.
    public var minBytes: Sourced<Int?>
    public var minPixels: Sourced<PixelSize?>

    /// A value that only its resolution can judge (a size past the imaging's bound, scales that
    /// take it there), naming where it came from.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The value came from a flag: a usage error, not a config file's.
        public let fromFlag: Bool
    }

    /// `layers` from the strongest: the flags, the cache's config, the user's config.
    public static func resolve(_ layers: [SettingLayer]) throws(Invalid) -> EffectiveSettings {
        let loading = LoadingOptions(), imaging = ImagingOptions()
        func pick<Value>(_ key: KeyPath<CacheConfig, Value?>) -> Sourced<Value?> {
            for layer in layers { if let value = layer.config[keyPath: key] { return Sourced(value, from: layer.source) } }
            return Sourced(nil, from: .builtIn)
        }
        func pick<Value>(_ key: KeyPath<CacheConfig, Value?>, default value: Value) -> Sourced<Value> {
            let found = pick(key)
            return Sourced(found.value ?? value, from: found.source)
        }
        let written = pick(\.sizes)
        var sizes = Sourced(imaging.sizes, from: .builtIn)
        if let texts = written.value {
            var parsed: [ThumbnailSize] = []
            for text in texts {
                guard let size = ThumbnailSize(parsing: text) else {
                    throw Invalid(description: "\(place(written.source, "sizes")): \"\(text)\" must look like 40x40, "
                        + "1–\(ThumbnailSize.maxSide) each side", fromFlag: written.source == .flag)
                }
                parsed.append(size)
            }
            sizes = Sourced(parsed, from: written.source)
        }
        let settings = EffectiveSettings(
            sizes: sizes, scales: pick(\.scales),
            jobs: pick(\.jobs, default: loading.jobs), perHost: pick(\.perHost, default: loading.perHost),
            rate: pick(\.rate), userAgent: pick(\.userAgent), maxSize: pick(\.maxSize), maxAge: pick(\.maxAge),
            store: pick(\.store), galleryTitle: pick(\.galleryTitle),
            format: named(pick(\.format), default: .png, ThumbnailFormat.init(named:)),
            quality: pick(\.quality),
            fit: named(pick(\.fit), default: .cover, ThumbnailFit.init(rawValue:)),
            minBytes: pick(\.minBytes), minPixels: pick(\.minPixels))
        guard settings.thumbnailSizes != nil else {
            let source = settings.scales.source
            throw Invalid(description: "\(place(source, "scales")): \(settings.scales.value ?? []) must keep "
                + "\(settings.sizes.value[0]) within \(ThumbnailSize.maxSide) pixels", fromFlag: source == .flag)
        }
        return settings
    }

    /// The sizes made for every image: `sizes` with the first at each of `scales`, each made in
    /// the `format`, `quality` and `fit`.
    public var thumbnailSizes: [ThumbnailSize]? {
        var boxes: [ThumbnailSize]? = sizes.value
        if let scales = scales.value { boxes = ImagingOptions.sizes(sizes.value, scaledBy: scales) }
        return boxes?.map { $0.made(fit: fit.value, format: format.value, quality: quality.value) }
    }

    /// A name the config layer checked (`"webp"`), as its value; the default when none was given.
    private static func named<Value: Sendable>(_ found: Sourced<String?>, default value: Value,
                                     _ parse: (String) -> Value?) -> Sourced<Value> {
        Sourced(found.value.flatMap(parse) ?? value, from: found.value == nil ? .builtIn : found.source)
    }

    /// `--scales`, or `/path/config.json: scales`.
    private static func place(_ source: SettingSource, _ key: String) -> String {
        switch source {
        case .flag: "--\(key.replacingOccurrences(of: "_", with: "-"))"
        case .cache(let file), .user(let file): "\(file): \(key)"
        case .builtIn: key
        }
    }
}

extension SyncOptions {
    /// The options a sync runs with under `settings`; the rest stay as the flags set them.
    public mutating func apply(_ settings: EffectiveSettings) {
        imaging.sizes = settings.thumbnailSizes ?? imaging.sizes
        loading.jobs = settings.jobs.value
        loading.perHost = settings.perHost.value
        loading.rate = settings.rate.value
        loading.userAgent = settings.userAgent.value
        cache.maxSize = settings.maxSize.value
        loading.minBytes = settings.minBytes.value
        loading.minPixels = settings.minPixels.value
    }
}
