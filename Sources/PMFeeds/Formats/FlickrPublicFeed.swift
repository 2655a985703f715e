import Foundation

/// Flickr's `services/feeds/photos_public.gne` in JSON or JSONP form (the bytes arrive already
/// unwrapped by `JSONPUnwrapper`).
enum FlickrPublicFeed {
    static func parse(_ root: JSONValue) -> ParsedFeed {
        var collector = ItemCollector()
        for (index, entry) in (root["items"]?.array ?? []).enumerated() {
            let reader = JSONItemReader(item: entry, warnings: collector.warnings)
            collector.add(index: index, id: itemID(reader)) { () throws(ItemProblem) in
                try item(reader)
            }
        }
        var feed = fields(root)
        (feed.items, feed.invalid) = (collector.uniqueItems, collector.invalid)
        feed.warnings = collector.warnings.messages
        return feed
    }

    /// The feed without its items.
    static func fields(_ root: JSONValue) -> ParsedFeed {
        ParsedFeed(kind: .flickrPublic, title: root["title"]?.string ?? "", link: root["link"]?.string, items: [])
    }

    /// The id an item that cannot be read is named by.
    static func itemID(_ reader: JSONItemReader) -> String? {
        reader.value("link")?.string.flatMap(photoID(fromLink:))
    }

    static func item(_ reader: JSONItemReader) throws(ItemProblem) -> FeedItem {
        let title = try reader.requiredString("title")
        let link = try reader.requiredString("link")
        let media = try reader.requiredString("media.m")
        guard let id = photoID(fromLink: link) ?? FeedItemIDs.hashed(link, media) else {
            throw ItemProblem(reason: "\"link\" and \"media.m\" are both empty")
        }
        return FeedItem(
            id: id, title: title, link: link,
            published: reader.optionalString("published").flatMap { FeedDate.parse($0) },
            dateTaken: reader.optionalString("date_taken").flatMap { FeedDate.parse($0) },
            author: reader.optionalString("author").flatMap(FeedText.authorName(from:)),
            tags: FeedText.splitTags(reader.optionalString("tags")),
            description: reader.optionalString("description"),
            mediaURL: media)
    }

    /// The numeric photo id in `https://www.flickr.com/photos/{owner}/{id}/`.
    static func photoID(fromLink link: String) -> String? {
        switch PlainHTTPLink(link) {
        case .plain(let photoID): photoID
        case .notPlain: photoIDParsingURL(link)
        }
    }

    /// The general case: any link `URL` accepts (percent escapes, queries, relative paths, …).
    static func photoIDParsingURL(_ link: String) -> String? {
        guard let components = URL(string: link)?.pathComponents,
              let photos = components.firstIndex(of: "photos"), photos + 2 < components.count else { return nil }
        let candidate = components[photos + 2]
        return !candidate.isEmpty && candidate.allSatisfy(\.isASCII) && candidate.allSatisfy(\.isNumber) ? candidate : nil
    }
}
