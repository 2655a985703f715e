import Foundation
import PMFeeds
import PMLoading

/// `photomirror feed`: fetches and parses a feed as `sync` would (paging, signing, limits)
/// and tells what it found, touching no cache. For a person asking "why is this image not
/// mirrored?", and for timing the parser on its own.
public struct FeedInspection: Sendable {
    public let options: LoadingOptions

    public init(options: LoadingOptions) {
        self.options = options
    }

    /// What a feed holds, as photomirror reads it.
    public struct Report: Sendable, Encodable {
        public struct Item: Sendable, Encodable {
            public var id: String
            public var title: String
            public var link: String?
            public var media: [FeedMedia]
            public var noImageReason: String?

            enum CodingKeys: String, CodingKey {
                case id, title, link, media
                case noImageReason = "no_image_reason"
            }
        }

        public var url: String
        public var kind: String
        public var title: String
        public var link: String?
        public var image: String?
        public var warnings: [String]
        public var items: [Item]
        /// Entries that could not be read, with why.
        public var invalid: [String]
    }

    public func run(url: String) async throws(FeedInspectionError) -> Report {
        let curl = CurlLoader(userAgent: options.userAgent ?? CurlLoader.defaultUserAgent, maxConnections: 2)
        defer { curl.shutdown() }
        let fetcher = FeedFetcher(loader: RetryingLoader(base: curl, policy: options.retry), options: options, index: nil)
        let fetched: FetchedFeed
        do {
            fetched = try await fetcher.fetch(url)
        } catch {
            throw FeedInspectionError(description: error.description)
        }
        var parsed: ParsedFeed
        do {
            parsed = try fetched.read()
        } catch {
            throw FeedInspectionError(description: "\(Redaction.url(url)): \(error)")
        }
        parsed.limitImages(perItem: options.maxImagesPerItem)
        parsed.items = options.selection.choose(parsed.items)
        return Report(url: Redaction.url(url), kind: parsed.kind.rawValue, title: parsed.title, link: parsed.link, image: parsed.image,
                      warnings: parsed.warnings,
                      items: parsed.items.map {
                          Report.Item(id: $0.id, title: $0.title, link: $0.link, media: $0.media,
                                      noImageReason: $0.media.isEmpty ? $0.noImageReason : nil)
                      },
                      invalid: parsed.invalid.map(\.reason))
    }
}

/// The feed could not be fetched or parsed; names the URL and the cause.
public struct FeedInspectionError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
