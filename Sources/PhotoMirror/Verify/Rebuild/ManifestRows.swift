import Foundation
import PMCache

/// A feed's index rows as its manifest tells them: what a rebuilt index holds of the feed. Pure.
///
/// Statuses come back as the sync stored them: an item the manifest calls `evicted` or
/// `evicted-original` was `ok` with its image's hash, and the index derives the evicted ones
/// from the files it holds (`PhotoIndex.derivedStatus`), so they read the same again, and `ok`
/// reads as evicted when the image's files are gone. Manifests of every version read: a field
/// an older one lacks (`media`, `image`, validators) is absent, never an error.
struct ManifestRows: Sendable, Equatable {
    var feed: FeedRecord
    var items: [ItemRecord]
    /// Every image URL of the feed with a hash (its items' and its own image), with the
    /// validators its bytes were fetched with: the media URL rows of the rebuilt index.
    var media: [Media]
    /// The size of the items' `thumbnail`, the gallery's (the first `--size` of the sync that wrote it).
    var gallerySize: String?

    struct Media: Sendable, Equatable {
        var url: String
        var sha256: String
        var etag: String?
        var lastModified: String?
        /// The decoding warning of its original (a damaged file), as the manifest gives it.
        var warning: String? = nil
        /// Its original's placeholder (ThumbHash, base64), as the manifest gives it.
        var placeholder: String? = nil
        /// The manifest shows its original stored (not evicted): without the file, it was lost.
        var showsOriginal = false
    }

    /// Reads a manifest. `key`: the name of the folder it is in, the feed's key (that of its
    /// URL, `CacheLayout.feedKey`, when nil). `lastSync`: when the feed at a URL last synced, from
    /// the sidecar; else the manifest's own `updated_at`, the last sync that changed it, is taken.
    static func read(_ data: Data, key: String? = nil, lastSync: (String) -> Double? = { _ in nil }) throws -> ManifestRows {
        let manifest = try JSONDecoder().decode(StoredManifest.self, from: data)
        let lastSync = lastSync(manifest.url)
        let key = key ?? CacheLayout.feedKey(url: manifest.url)
        var rows = ManifestRows(
            feed: FeedRecord(
                key: key, url: manifest.url, kind: manifest.kind ?? "rss", title: manifest.title ?? "", link: manifest.link,
                attribution: manifest.attribution, etag: manifest.etag, lastModified: manifest.lastModified,
                lastSync: lastSync ?? manifest.updatedAt.flatMap(Self.seconds) ?? 0,
                imageURL: manifest.image?.url, imageSHA256: manifest.image.flatMap(Self.hash(of:)),
                warnings: manifest.warnings ?? []),
            items: [], media: [], gallerySize: nil)
        if let image = manifest.image, let sha256 = rows.feed.imageSHA256 {
            rows.media.append(Media(url: image.url, sha256: sha256, etag: image.etag, lastModified: image.lastModified,
                                    showsOriginal: image.original != nil))
        }
        for (position, item) in manifest.items.enumerated() {
            let record = Self.record(item, position: position)
            for media in item.media ?? [] {
                if let sha256 = media.sha256 {
                    rows.media.append(Media(url: media.url, sha256: sha256, etag: media.etag, lastModified: media.lastModified,
                                            warning: media.warning, placeholder: media.placeholder,
                                            showsOriginal: ItemStatus(stored: media.status) == .ok))
                }
            }
            if item.media == nil, let url = record.mediaURL, let sha256 = record.sha256 {
                rows.media.append(Media(url: url, sha256: sha256, etag: nil, lastModified: nil,
                                        showsOriginal: ItemStatus(stored: item.status) == .ok))
            }
            rows.items.append(record)
            if rows.gallerySize == nil, let thumbnail = item.thumbnail, case .content(let name) = CachePath(thumbnail) {
                rows.gallerySize = name.sizeText
            }
        }
        return rows
    }

    private static func record(_ item: StoredManifest.Item, position: Int) -> ItemRecord {
        var record = ItemRecord(
            itemID: item.id, position: position, title: item.title ?? "", link: item.link,
            published: item.published.flatMap(seconds), dateTaken: item.dateTaken.flatMap(seconds), author: item.author,
            tags: item.tags ?? [], description: item.description, mediaURL: item.mediaURL,
            status: storedStatus(item.status, sha256: item.sha256), error: item.error, sha256: item.sha256)
        // `media` repeats the first image with where the feed put it; manifests before it know one image.
        if let media = item.media, let first = media.first, first.url == item.mediaURL {
            record.mediaSource = first.source
            record.moreMedia = media.dropFirst().map {
                MediaRecord(url: $0.url, source: $0.source ?? "api", status: storedStatus($0.status, sha256: $0.sha256),
                            error: $0.error, sha256: $0.sha256)
            }
        }
        return record
    }

    /// The status a sync stored for what the manifest shows.
    static func storedStatus(_ shown: String?, sha256: String?) -> ItemStatus {
        let status = ItemStatus(stored: shown)
        guard sha256 != nil, ItemStatus.evictedStatuses.contains(status) else { return status }
        return .ok
    }

    /// The hash of a feed's own image: given since manifests carry it, else the name of its files.
    private static func hash(of image: StoredManifest.Image) -> String? {
        image.sha256 ?? [image.original, image.thumbnail].compactMap { $0 }.lazy.compactMap(hashInName).first
    }

    /// `<sha256>` of `originals/ab/<sha256>.jpg` or `thumbs/40x40/ab/<sha256>.png`.
    static func hashInName(_ path: String) -> String? {
        guard case .content(let name) = CachePath(path) else { return nil }
        return name.sha256.description
    }

    static func seconds(_ timestamp: String) -> Double? {
        (try? Date(timestamp, strategy: .iso8601))?.timeIntervalSince1970
    }
}

extension ItemStatus {
    /// What a manifest shows of an image whose files prune or a repair dropped.
    static let evictedStatuses: [ItemStatus] = [.evicted, .evictedOriginal]
}

/// A manifest as any version wrote it: only `url` and `items` (with their `id`s) are required.
private struct StoredManifest: Decodable {
    struct Image: Decodable {
        var url: String
        var original: String?
        var thumbnail: String?
        var sha256: String?
        var etag: String?
        var lastModified: String?

        enum CodingKeys: String, CodingKey {
            case url, original, thumbnail, sha256, etag
            case lastModified = "last_modified"
        }
    }

    struct Media: Decodable {
        var url: String
        var source: String?
        var status: String?
        var error: String?
        var warning: String?
        var sha256: String?
        var etag: String?
        var lastModified: String?
        var placeholder: String?

        enum CodingKeys: String, CodingKey {
            case url, source, status, error, warning, sha256, etag, placeholder
            case lastModified = "last_modified"
        }
    }

    struct Item: Decodable {
        var id: String
        var title: String?
        var link: String?
        var published: String?
        var dateTaken: String?
        var author: String?
        var tags: [String]?
        var description: String?
        var mediaURL: String?
        var status: String?
        var error: String?
        var sha256: String?
        var thumbnail: String?
        var media: [Media]?

        enum CodingKeys: String, CodingKey {
            case id, title, link, published, author, tags, description, status, error, sha256, thumbnail, media
            case dateTaken = "date_taken"
            case mediaURL = "media_url"
        }
    }

    var url: String
    var title: String?
    var kind: String?
    var link: String?
    var attribution: String?
    var updatedAt: String?
    var etag: String?
    var lastModified: String?
    var image: Image?
    var warnings: [String]?
    var items: [Item]

    enum CodingKeys: String, CodingKey {
        case url, title, kind, link, attribution, etag, image, warnings, items
        case updatedAt = "updated_at"
        case lastModified = "last_modified"
    }
}
