/// The effective settings as `photomirror config` lists them: every key, in the order of the
/// config file's documentation, with its value as config.json would hold it.
public struct SettingsListing: Sendable, Encodable {
    public struct Entry: Sendable, Encodable {
        /// The config.json key; the JSON document's name for the entry.
        public let key: String
        public let value: ConfigJSON
        /// `flag`, `cache`, `user` or `built-in`.
        public let source: String
        /// The file it came from; nil for a flag or a built-in.
        public let file: String?

        enum CodingKeys: String, CodingKey { case value, source, file }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
            try container.encode(source, forKey: .source)
            try container.encode(file, forKey: .file)
        }
    }

    public let entries: [Entry]

    /// An object keyed by the config.json keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for entry in entries { try container.encode(entry, forKey: Key(stringValue: entry.key)) }
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(_ settings: EffectiveSettings) {
        func entry<Value>(_ key: String, _ setting: Sourced<Value>, _ value: ConfigJSON) -> Entry {
            Entry(key: key, value: value, source: setting.source.name, file: setting.source.file)
        }
        entries = [
            entry("sizes", settings.sizes, .texts(settings.sizes.value.map(\.description))),
            entry("scales", settings.scales, settings.scales.value.map { .integers($0) } ?? .null),
            entry("format", settings.format, .text(settings.format.value.rawValue)),
            entry("quality", settings.quality, settings.quality.value.map { .integer($0) } ?? .null),
            entry("fit", settings.fit, .text(settings.fit.value.rawValue)),
            entry("jobs", settings.jobs, .integer(settings.jobs.value)),
            entry("per_host", settings.perHost, .integer(settings.perHost.value)),
            entry("rate", settings.rate, settings.rate.value.map { .number($0) } ?? .null),
            entry("user_agent", settings.userAgent, settings.userAgent.value.map { .text($0) } ?? .null),
            entry("max_size", settings.maxSize, settings.maxSize.value.map { .integer($0) } ?? .null),
            entry("max_age", settings.maxAge, settings.maxAge.value.map { .number($0) } ?? .null),
            entry("min_bytes", settings.minBytes, settings.minBytes.value.map { .integer($0) } ?? .null),
            entry("min_pixels", settings.minPixels, settings.minPixels.value.map { .text($0.description) } ?? .null),
            entry("store", settings.store, settings.store.value.map { .text($0) } ?? .null),
            entry("gallery_title", settings.galleryTitle, settings.galleryTitle.value.map { .text($0) } ?? .null),
        ]
    }
}

/// A setting's value in JSON: what config.json would hold (sizes in bytes, ages in seconds).
public enum ConfigJSON: Sendable, Encodable, Equatable {
    case null
    case text(String)
    case integer(Int)
    case number(Double)
    case texts([String])
    case integers([Int])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .texts(let texts): try container.encode(texts)
        case .integers(let numbers): try container.encode(numbers)
        }
    }

    /// As a person reads it: `120x80, 40x40`, `1,2`, `none`.
    public var text: String {
        switch self {
        case .null: "none"
        case .text(let text): text
        case .integer(let number): String(number)
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        case .texts(let texts): texts.joined(separator: ", ")
        case .integers(let numbers): numbers.map(String.init).joined(separator: ",")
        }
    }
}
