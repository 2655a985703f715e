import PMCache
import PMImaging

/// A feed as a JSON Feed 1.1 document (`feeds/<key>/feed.json`, https://jsonfeed.org/version/1.1)
/// whose images are the mirrored originals, so a feed reader pointed at the served cache reads
/// the mirror without the network. Items come newest first, as on the feed's pages.
///
/// Every path in it is relative to the file itself (`../../originals/ab/<sha>.jpg`): the mirror
/// does not know the URL it will be served at, and a relative reference resolved against the
/// document's own URL (RFC 3986) lands in the cache whatever the host, or `file://`. That is
/// also why there is no `feed_url`, which must be absolute: the source feed's URL is in the
/// `_photomirror` extension object instead.
///
/// Written in pieces like the manifest; pure: the caller loads the feed and stores the pieces.
enum JSONFeedWriter {
    static let version = "https://jsonfeed.org/version/1.1"
    /// The custom extension object (JSON Feed: names starting with `_` are ignored by readers
    /// that don't know them).
    static let extensionKey: StaticString = "_photomirror"
    /// From `feeds/<key>/` back to the cache root.
    static let rootPrefix = FeedPage.rootPrefix
    static let userComment = "Written by photomirror from its cache. Image URLs are relative to this file, "
        + "so they resolve wherever the cache is served."

    static func write<Failure: Error>(feed: GalleryFeed, base: ThumbnailSize,
                                      to output: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var pieces = Pieces(record: feed.record, logo: feed.record.imageSHA256.flatMap { feed.paths[$0] }, base: base)
        for item in GalleryPaging.newestFirst(feed.items) {
            if let piece = pieces.add(item, paths: feed.paths) { try output(piece) }
        }
        try output(pieces.finish())
    }

    /// The document written as its items come, newest first, a page of them at a time; `add`
    /// hands back a piece whenever about `ManifestWriter.pieceBytes` are written.
    struct Pieces {
        private var pieces = JSONItemPieces()

        /// `logo`: the files of the feed's own image.
        init(record: FeedRecord, logo: StoredPaths?, base: ThumbnailSize) {
            pieces.json.raw("{")
            pieces.json.member("version", version, depth: 1, first: true)
            pieces.json.member("title", record.displayTitle, depth: 1)
            if let home = HTML.externalHTTPURL(record.link) { pieces.json.member("home_page_url", home, depth: 1) }
            pieces.json.member("description", description(of: record), depth: 1)
            pieces.json.member("user_comment", userComment, depth: 1)
            if record.imageSHA256 != nil, let logo {
                if let original = logo.original { pieces.json.member("icon", link(original), depth: 1) }
                if let thumbnail = logo.thumbnails[base.description] { pieces.json.member("favicon", link(thumbnail), depth: 1) }
            }
            pieces.json.key(extensionKey, depth: 1)
            pieces.json.raw("{\"source_feed_url\": ")
            pieces.json.string(Redaction.url(record.url))
            pieces.json.raw(", \"kind\": ")
            pieces.json.string(record.kind)
            pieces.json.raw(", \"manifest\": ")
            pieces.json.string(CacheLayout.manifestFile)
            pieces.json.raw("}")
            pieces.json.key("items", depth: 1)
            pieces.json.raw("[")
        }

        mutating func add(_ item: ItemRecord, paths: [String: StoredPaths]) -> [UInt8]? {
            pieces.add { JSONFeedWriter.write(item, paths: paths, to: &$0) }
        }

        mutating func finish() -> [UInt8] {
            pieces.finish()
        }
    }

    /// The whole document in memory, for small feeds and tests.
    static func bytes(feed: GalleryFeed, base: ThumbnailSize) -> [UInt8] {
        var whole: [UInt8] = []
        write(feed: feed, base: base) { (piece: [UInt8]) -> Void in whole += piece }
        return whole
    }

    /// What the feed is, for a reader's feed list, with Marvel's required credit when it has one.
    static func description(of record: FeedRecord) -> String {
        let mirrored = "Mirrored by photomirror from \(Redaction.url(record.url))"
        guard let attribution = record.attribution.map(HTML.trimmingWhitespace), !attribution.isEmpty else { return mirrored }
        return "\(mirrored). \(attribution)"
    }

    /// An item needs an `id` and one of `content_html`/`content_text`: the description (HTML as
    /// the feed gave it) when it has one, else the title as text. Images are only those whose
    /// original the cache holds: the first is `image`, the others `attachments`; the first's
    /// placeholder, when the index has one, is `"_photomirror": {"thumbhash": "<base64>"}`.
    fileprivate static func write(_ item: ItemRecord, paths: [String: StoredPaths], to json: inout JSONBuffer) {
        json.member("id", item.itemID, depth: 2, first: true)
        if let url = HTML.externalHTTPURL(item.link) { json.member("url", url, depth: 2) }
        let title = HTML.trimmingWhitespace(item.title)
        if !title.isEmpty { json.member("title", title, depth: 2) }
        if let html = item.description, !HTML.trimmingWhitespace(html).isEmpty {
            json.member("content_html", html, depth: 2)
        } else {
            json.member("content_text", title, depth: 2)
        }
        if let published = item.published { json.member("date_published", timestamp: published, depth: 2) }
        if let author = item.author.map(HTML.trimmingWhitespace), !author.isEmpty {
            json.key("authors", depth: 2)
            json.raw("[{\"name\": ")
            json.string(author)
            json.raw("}]")
        }
        if !item.tags.isEmpty { json.member("tags", strings: item.tags, depth: 2) }
        var seen = Set<String>()
        let images = item.allMedia.compactMap { media -> StoredPaths? in
            guard media.status == .ok, let sha256 = media.sha256, seen.insert(sha256).inserted,
                  let stored = paths[sha256], stored.original != nil else { return nil }
            return stored
        }
        let originals = images.compactMap(\.original)
        guard let first = originals.first else { return }
        json.member("image", link(first), depth: 2)
        if let placeholder = images[0].placeholder {
            json.key(extensionKey, depth: 2)
            json.raw("{\"thumbhash\": ")
            json.string(placeholder)
            json.raw("}")
        }
        guard originals.count > 1 else { return }
        json.key("attachments", depth: 2)
        json.raw("[")
        for (index, original) in originals.dropFirst().enumerated() {
            json.raw(index == 0 ? "{\"url\": " : ", {\"url\": ")
            json.string(link(original))
            json.raw(", \"mime_type\": ")
            json.string(mimeType(of: original))
            json.raw("}")
        }
        json.raw("]")
    }

    /// A cache-relative path as a URL relative to `feeds/<key>/feed.json`.
    static func link(_ path: String) -> String {
        rootPrefix + HTML.relativeLink(path)
    }

    /// An original's type from its extension, which the cache gives it from its bytes.
    static func mimeType(of path: String) -> String {
        let fileExtension = path.split(separator: ".").last.map(String.init) ?? ""
        return ImageFormat.all.first { $0.fileExtension == fileExtension }?.mimeType ?? "application/octet-stream"
    }
}
