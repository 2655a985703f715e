import Foundation
import PMCache

/// A feed's manifest (`feeds/<key>/manifest.json`): what a static client reads to find each
/// item's files. Paths are relative to the cache root.
public struct Manifest: Codable, Sendable, Equatable {
    public var url: String
    public var title: String
    public var kind: String
    public var link: String?
    public var attribution: String?
    /// When the mirror last changed this manifest: a sync that found the feed (and its images)
    /// as they were leaves the file as it is; the root page tells when it last synced.
    public var updatedAt: String
    /// The feed's HTTP validators as its index row held them when this manifest was written: a
    /// rebuilt index asks the feed with them (`cache-layout.md`, "Rebuilding the index").
    public var etag: String?
    public var lastModified: String?
    /// The feed's own image, mirrored, when it has one.
    public var image: FeedImage?
    /// What had to be repaired to read the feed (recovered XML, a guessed charset); empty when nothing.
    public var warnings: [String]
    public var items: [Item]

    public struct FeedImage: Codable, Sendable, Equatable {
        public var url: String
        public var original: String?
        public var thumbnail: String?
        /// The mirrored image's hash, kept when its files were evicted too.
        public var sha256: String?
    }

    /// One image of an item; `Item.media` lists them all, the first being the item's own fields.
    public struct Media: Codable, Sendable, Equatable {
        public var url: String
        public var source: String
        public var status: String
        public var error: String?
        public var sha256: String?
        public var original: String?
        public var thumbnails: [String: String]
        /// The HTTP validators the image's bytes were fetched with, when the server gave any.
        public var etag: String?
        public var lastModified: String?
        /// The file was damaged; its thumbnails show the part that decodes. What the decoder said.
        public var warning: String? = nil
        /// The image's ThumbHash, base64: a blurred placeholder of the whole image
        /// (https://evanw.github.io/thumbhash/). Absent for an image stored before it was made.
        public var placeholder: String? = nil

        enum CodingKeys: String, CodingKey {
            case url, source, status, error, warning, sha256, original, thumbnails, placeholder, etag
            case lastModified = "last_modified"
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var link: String?
        public var published: String?
        public var dateTaken: String?
        public var author: String?
        public var tags: [String]
        public var description: String?
        public var mediaURL: String?
        public var status: String
        public var error: String?
        public var sha256: String?
        public var original: String?
        public var thumbnail: String?
        public var thumbnails: [String: String]
        public var media: [Media]
        /// As `Media.warning`, for the item's own image.
        public var warning: String? = nil
        /// As `Media.placeholder`, for the item's own image.
        public var placeholder: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, title, link, published, author, tags, description, status, error, warning, sha256, original, thumbnail,
                 thumbnails, placeholder, media
            case dateTaken = "date_taken"
            case mediaURL = "media_url"
        }
    }

    enum CodingKeys: String, CodingKey {
        case url, title, kind, link, attribution, image, warnings, items, etag
        case updatedAt = "updated_at"
        case lastModified = "last_modified"
    }
}

/// The files the index has for one original, as the manifest names them, its decoding warning
/// and its placeholder (ThumbHash, base64).
struct StoredPaths: Sendable {
    var original: String?
    var thumbnails: [String: String]
    var warning: String? = nil
    var placeholder: String? = nil
}

/// Writes a manifest from index rows, in the documented key order (cache-layout.md), one key
/// per line, in pieces: a 100 000-item manifest is ~100 MB and never needs to be in memory
/// whole. Pure: the caller looks the paths up and stores the pieces.
enum ManifestWriter {
    /// About how many bytes each piece handed to `output` holds.
    static let pieceBytes = 64 << 10

    static func write(feed: FeedRecord, updatedAt: Double, items: [ItemRecord], paths: [String: StoredPaths],
                      validators: [String: MediaValidators] = [:], primarySize: String,
                      to output: ([UInt8]) throws -> Void) rethrows {
        var pieces = Pieces(feed: feed, updatedAt: updatedAt, image: feed.imageSHA256.flatMap { paths[$0] },
                            imageValidators: feed.imageURL.flatMap { validators[$0] }, primarySize: primarySize)
        for item in items {
            if let piece = pieces.add(item, paths: paths, validators: validators) { try output(piece) }
        }
        try output(pieces.finish())
    }

    /// A manifest written as its items come, a page of them at a time: the feed's fields first,
    /// then each item, then the end. `add` hands back a piece whenever about `pieceBytes` are written.
    struct Pieces {
        private var pieces = JSONItemPieces()
        let primarySize: String

        /// `image`: the files of the feed's own image (`feed.imageSHA256`), `imageValidators` those of its URL.
        init(feed: FeedRecord, updatedAt: Double, image: StoredPaths?, imageValidators: MediaValidators?, primarySize: String) {
            self.primarySize = primarySize
            pieces.json.raw("{")
            // Published: without user info or secret parameters; the index keeps the URL a re-sync asks for.
            pieces.json.member("url", Redaction.url(feed.url), depth: 1, first: true)
            pieces.json.member("title", feed.title, depth: 1)
            pieces.json.member("kind", feed.kind, depth: 1)
            pieces.json.member("link", feed.link, depth: 1)
            pieces.json.member("attribution", feed.attribution, depth: 1)
            pieces.json.member("updated_at", timestamp: updatedAt, depth: 1)
            pieces.json.member("etag", feed.etag, depth: 1)
            pieces.json.member("last_modified", feed.lastModified, depth: 1)
            pieces.json.key("image", depth: 1)
            if let url = feed.imageURL {
                let stored = feed.imageSHA256 == nil ? nil : image
                pieces.json.raw("{\"url\": ")
                pieces.json.string(url)
                pieces.json.raw(", \"original\": ")
                pieces.json.string(stored?.original)
                pieces.json.raw(", \"thumbnail\": ")
                pieces.json.string(stored?.thumbnails[primarySize])
                pieces.json.raw(", \"sha256\": ")
                pieces.json.string(feed.imageSHA256)
                imageValidators.map { ManifestWriter.write($0, to: &pieces.json) }
                pieces.json.raw("}")
            } else {
                pieces.json.raw("null")
            }
            pieces.json.member("warnings", strings: feed.warnings, depth: 1)
            pieces.json.key("items", depth: 1)
            pieces.json.raw("[")
        }

        /// Writes one item; returns a piece to store when one is full.
        mutating func add(_ item: ItemRecord, paths: [String: StoredPaths], validators: [String: MediaValidators]) -> [UInt8]? {
            pieces.add { ManifestWriter.write(item, paths: paths, validators: validators, primarySize: primarySize, to: &$0) }
        }

        /// The last piece.
        mutating func finish() -> [UInt8] {
            pieces.finish()
        }
    }

    /// The whole manifest in memory, for small feeds and tests.
    static func bytes(feed: FeedRecord, updatedAt: Double, items: [ItemRecord], paths: [String: StoredPaths],
                      validators: [String: MediaValidators] = [:], primarySize: String) -> [UInt8] {
        var whole: [UInt8] = []
        write(feed: feed, updatedAt: updatedAt, items: items, paths: paths, validators: validators,
              primarySize: primarySize) { whole += $0 }
        return whole
    }

    fileprivate static func write(_ item: ItemRecord, paths: [String: StoredPaths], validators: [String: MediaValidators],
                              primarySize: String, to json: inout JSONBuffer) {
        let stored = item.sha256.flatMap { paths[$0] }
        json.member("id", item.itemID, depth: 2, first: true)
        json.member("title", item.title, depth: 2)
        json.member("link", item.link, depth: 2)
        json.member("published", timestamp: item.published, depth: 2)
        json.member("date_taken", timestamp: item.dateTaken, depth: 2)
        json.member("author", item.author, depth: 2)
        json.member("tags", strings: item.tags, depth: 2)
        json.member("description", item.description, depth: 2)
        json.member("media_url", item.mediaURL, depth: 2)
        json.member("status", item.status.rawValue, depth: 2)
        json.member("error", item.error, depth: 2)
        // Only for a damaged file (an ok image): other manifests stay byte for byte as they were.
        if let warning = stored?.warning { json.member("warning", warning, depth: 2) }
        json.member("sha256", item.sha256, depth: 2)
        json.member("original", stored?.original, depth: 2)
        json.member("thumbnail", stored?.thumbnails[primarySize], depth: 2)
        json.member("thumbnails", stringMap: stored?.thumbnails ?? [:], depth: 2)
        // Only when the index has one: a manifest of images stored before it stays as it was.
        if let placeholder = stored?.placeholder { json.member("placeholder", placeholder, depth: 2) }
        json.key("media", depth: 2)
        json.raw("[")
        for (index, media) in item.allMedia.enumerated() {
            let files = media.sha256.flatMap { paths[$0] }
            json.raw(index == 0 ? "{\"url\": " : ", {\"url\": ")
            json.string(media.url)
            json.raw(", \"source\": ")
            json.string(media.source)
            json.raw(", \"status\": ")
            json.string(media.status.rawValue)
            json.raw(", \"error\": ")
            json.string(media.error)
            if let warning = files?.warning {
                json.raw(", \"warning\": ")
                json.string(warning)
            }
            json.raw(", \"sha256\": ")
            json.string(media.sha256)
            json.raw(", \"original\": ")
            json.string(files?.original)
            json.raw(", \"thumbnails\": ")
            json.stringObject(files?.thumbnails ?? [:])
            if let placeholder = files?.placeholder {
                json.raw(", \"placeholder\": ")
                json.string(placeholder)
            }
            validators[media.url].map { write($0, to: &json) }
            json.raw("}")
        }
        json.raw("]")
    }

    /// `, "etag": …, "last_modified": …` inside an image's object, only the ones there are:
    /// most images of a feed without validators cost no bytes.
    fileprivate static func write(_ validators: MediaValidators, to json: inout JSONBuffer) {
        if let etag = validators.etag {
            json.raw(", \"etag\": ")
            json.string(etag)
        }
        if let lastModified = validators.lastModified {
            json.raw(", \"last_modified\": ")
            json.string(lastModified)
        }
    }
}
