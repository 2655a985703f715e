import Foundation

/// Flickr REST responses with a `photos.photo[]` list (`flickr.photos.search`, `getRecent`,
/// `people.getPhotos`, …) and `photoset.photo[]` (`photosets.getPhotos`).
enum FlickrSearchFeed {
    /// Direct URL extras in order of preference. Capped at 1024 px (`url_b`): a mirror wants a
    /// good display size, and `url_h`/`url_k`/`url_o` are multi-megabyte (the original may not even be
    /// a JPEG). Those larger ones are only used when no other way to reach the photo exists.
    static let preferredURLExtras = ["url_b", "url_c", "url_z", "url_m", "url_n", "url_w", "url_s", "url_q", "url_t", "url_sq"]
    static let lastResortURLExtras = ["url_h", "url_k", "url_o"]

    static func parse(_ root: JSONValue, url: URL) throws(FeedError) -> ParsedFeed {
        if root["stat"]?.string == "fail" {
            let code = root["code"]?.lenientString ?? "?"
            let message = root["message"]?.string ?? "no message"
            throw FeedError("Flickr API error \(code): \(message)")
        }
        guard let container = root["photos"] ?? root["photoset"], let photos = container["photo"]?.array else {
            throw FeedError("Flickr API response has no \"photos.photo\" list")
        }
        var collector = ItemCollector()
        for (index, photo) in photos.enumerated() {
            let reader = JSONItemReader(item: photo, warnings: collector.warnings)
            collector.add(index: index, id: photo["id"]?.lenientString) { () throws(ItemProblem) in
                try item(reader, defaultOwner: container["owner"]?.lenientString)
            }
        }
        let items = collector.uniqueItems
        let paging = Paging.flickr(page: container["page"]?.lenientInt ?? 1, pages: container["pages"]?.lenientInt ?? 1,
                                   perPage: container["perpage"]?.lenientInt ?? container["per_page"]?.lenientInt ?? items.count,
                                   total: container["total"]?.lenientInt)
        let method = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "method" }?.value
        return ParsedFeed(kind: .flickrSearch, title: "Flickr \(method ?? "photos")", link: nil, items: items,
                          invalid: collector.invalid, paging: paging, warnings: collector.warnings.messages)
    }

    private static func item(_ reader: JSONItemReader, defaultOwner: String?) throws(ItemProblem) -> FeedItem {
        let id = try reader.requiredLenientString("id")
        guard !id.isEmpty else { throw ItemProblem(reason: "\"id\" is missing") }
        let owner = reader.lenientString("owner") ?? defaultOwner
        let built = builtURL(reader, id: id)
        guard let media = directURL(reader, extras: preferredURLExtras) ?? built
                ?? directURL(reader, extras: lastResortURLExtras) else {
            throw ItemProblem(reason: "no url_* extra and no \"server\"/\"secret\" to build the image URL from")
        }
        return FeedItem(
            id: id, title: reader.lenientString("title") ?? "",
            link: owner.map { "https://www.flickr.com/photos/\($0)/\(id)/" },
            published: reader.value("dateupload")?.lenientInt.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            // `datetaken` is wall-clock time without a zone; Flickr's public feed labels the same
            // value `-08:00`, so we do too and both feed kinds agree on the instant.
            dateTaken: reader.lenientString("datetaken").flatMap { FeedDate.parse($0, assumingOffset: -8 * 3_600) },
            author: reader.lenientString("ownername"),
            tags: FeedText.splitTags(reader.lenientString("tags")),
            description: reader.lenientString("description._content"),
            mediaURL: media)
    }

    private static func directURL(_ reader: JSONItemReader, extras: [String]) -> String? {
        extras.lazy.compactMap { reader.value($0)?.string }.first { !$0.isEmpty }
    }

    /// `https://live.staticflickr.com/{server}/{id}_{secret}.jpg` — the no-suffix 500 px size,
    /// chosen because every photo has it. `_b` (1024) is missing for older uploads whose original
    /// was small, and then Flickr answers with a "photo unavailable" placeholder image we would
    /// silently mirror. Ask for `extras=url_b,url_c,…` to get larger sizes that are known to exist.
    private static func builtURL(_ reader: JSONItemReader, id: String) -> String? {
        guard let server = reader.lenientString("server"), let secret = reader.lenientString("secret"),
              !server.isEmpty, !secret.isEmpty else { return nil }
        return "https://live.staticflickr.com/\(server)/\(id)_\(secret).jpg"
    }
}
