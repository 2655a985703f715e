import Foundation
import PMCache
import PMLoading
import PMObjectStore

/// Where a cache's content and published files live: its folder, or an S3 bucket under a
/// prefix (`--store s3://BUCKET[/PREFIX]`, or `"store"` in config.json). The folder keeps the
/// index and the writer's lock either way.
public enum StoreChoice: Sendable, Equatable {
    case folder
    case s3(bucket: String, prefix: String, configuration: S3Configuration)

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `s3://BUCKET[/PREFIX]`, with credentials, region and endpoint from the AWS SDKs' variables.
    public init(parsing text: String, environment: [String: String]) throws(ParseError) {
        guard text.hasPrefix("s3://") else {
            throw ParseError(description: "\"\(text)\" is not a store: write s3://BUCKET or s3://BUCKET/PREFIX")
        }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        if let problem = S3Names.bucketProblem(bucket) { throw ParseError(description: "\(text): \(problem)") }
        guard !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            throw ParseError(description: "\(text): a prefix cannot contain . or .. segments")
        }
        do {
            self = .s3(bucket: bucket, prefix: prefix, configuration: try S3Configuration.fromEnvironment(environment))
        } catch {
            throw ParseError(description: "\(text): \(error)")
        }
    }

    /// `--store` when given, else the cache's config.json, else the folder. A config.json that
    /// cannot be read is left for the command to report as the cache's error (exit 4), which it
    /// does before it writes anything.
    public static func resolve(explicit: String?, cacheRoot: String, environment: [String: String]) throws(ParseError) -> StoreChoice {
        let text = explicit ?? (try? CacheConfig.load(layout: CacheLayout(root: cacheRoot)))?.store
        guard let text else { return .folder }
        return try StoreChoice(parsing: text, environment: environment)
    }

    /// `s3://bucket/prefix`, or the folder; never the credentials.
    public var description: String {
        switch self {
        case .folder: "the cache folder"
        case .s3(let bucket, let prefix, _): prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)"
        }
    }

    /// The storage for a command that runs no sync (prune, verify, stats), with a transport of its
    /// own when it needs one; call `shutdown` when done.
    func standalone(layout: CacheLayout) -> (storage: any CacheStorage, shutdown: @Sendable () -> Void) {
        guard case .s3 = self else { return (LocalStorage(layout: layout), {}) }
        let curl = CurlLoader(maxConnections: 16, maxPerHost: 16)
        return (storage(layout: layout, loader: RetryingLoader(base: curl, policy: RetryPolicy())), { curl.shutdown() })
    }

    /// The storage over `loader` (a sync's own transport, retried).
    func storage(layout: CacheLayout, loader: any HTTPLoading) -> any CacheStorage {
        switch self {
        case .folder:
            LocalStorage(layout: layout)
        case .s3(let bucket, let prefix, let configuration):
            S3Storage(client: S3Client(configuration: configuration, loader: loader), bucket: bucket, prefix: prefix)
        }
    }
}
