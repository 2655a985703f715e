import Foundation

/// Settings kept with a cache, in `<cache>/config.json`, e.g. `{"max_size": "500MB"}` or
/// `{"store": "s3://bucket/mirror"}`.
/// Optional: a cache without the file has no settings. Unknown keys are refused rather than
/// ignored, so a typo like `max-size` does not silently leave the cache unbounded.
public struct CacheConfig: Sendable, Equatable {
    public static let fileName = "config.json"
    public static let knownKeys = ["max_size", "store"]

    /// Bound on the cache's disk use that every sync enforces (`sync --max` overrides it).
    public var maxSize: Int?
    /// Where the cache's files live when not in its folder (`--store` overrides it), as written.
    public var store: String?

    public init(maxSize: Int? = nil, store: String? = nil) {
        self.maxSize = maxSize
        self.store = store
    }

    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads the cache's config; no file means no settings.
    public static func load(layout: CacheLayout) throws(LoadError) -> CacheConfig {
        let path = layout.absolute(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return CacheConfig() }
        do {
            return try parse(data)
        } catch {
            throw LoadError(description: "\(path): \(error.description)")
        }
    }

    public static func parse(_ data: Data) throws(LoadError) -> CacheConfig {
        guard let settings = try? JSONDecoder().decode([String: Setting].self, from: data) else {
            throw LoadError(description: "not a JSON object of settings (write e.g. {\"max_size\": \"500MB\"})")
        }
        if let unknown = settings.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw LoadError(description: "unknown setting \"\(unknown)\" (known: \(knownKeys.joined(separator: ", ")))")
        }
        var config = CacheConfig()
        switch settings["max_size"] {
        case nil, .null?:
            break
        case .text(let text)?:
            do {
                config.maxSize = try ByteSize.parse(text)
            } catch {
                throw LoadError(description: "max_size: \(error.description)")
            }
        case .bytes(let bytes)? where bytes > 0:
            config.maxSize = bytes
        default:
            throw LoadError(description: "max_size must be a size such as \"500MB\" or a whole number of bytes")
        }
        switch settings["store"] {
        case nil, .null?: break
        case .text(let text)?: config.store = text
        default: throw LoadError(description: "store must be text such as \"s3://bucket/prefix\"")
        }
        return config
    }

    /// A setting's value as JSON gives it; anything else fails the decode.
    enum Setting: Decodable {
        case null, text(String), bytes(Int), other

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else if let number = try? value.decode(Int.self) {
                self = .bytes(number)
            } else {
                self = .other
            }
        }
    }
}
