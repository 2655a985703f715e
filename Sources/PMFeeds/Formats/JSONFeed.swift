import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
enum JSONFeed {
    static let versionPrefix = "https://jsonfeed.org/version/1"

    /// The spec's version URL (`https://jsonfeed.org/version/1.1`, also over http), or the bare
    /// `"1"`/`"1.0"`/`"1.1"` some generators write, with an `items` array beside it.
    static func isJSONFeed(_ root: JSONValue) -> Bool {
        guard let version = root["version"]?.string?.trimmingCharacters(in: .whitespaces) else { return false }
        if version.hasPrefix(versionPrefix) || version.hasPrefix("http://jsonfeed.org/version/1") { return true }
        return ["1", "1.0", "1.1"].contains(version) && root["items"]?.array != nil
    }
    static let noImageReason = "JSON Feed item has no image (no image attachment, image or banner_image)"

    static func parse(_ root: JSONValue, url: URL) -> ParsedFeed {
        let base = root["feed_url"]?.string.flatMap { URL(string: $0, relativeTo: url) } ?? url
        let feedAuthor = authorName(root)
        var collector = ItemCollector()
        for (index, entry) in (root["items"]?.array ?? []).enumerated() {
            collector.add(index: index, id: entry["id"]?.lenientString) { () throws(ItemProblem) in
                try item(JSONItemReader(item: entry), base: base, feedAuthor: feedAuthor)
            }
        }
        return ParsedFeed(kind: .jsonFeed, title: root["title"]?.string ?? "",
                          link: root["home_page_url"]?.string.map { resolve($0, against: base) },
                          items: collector.uniqueItems, invalid: collector.invalid)
    }

    private static func item(_ reader: JSONItemReader, base: URL, feedAuthor: String?) throws(ItemProblem) -> FeedItem {
        let link = try reader.optionalString("url").map { resolve($0, against: base) }
        let media = try imageURL(reader).map { resolve($0, against: base) }
        // `id` is required by the spec and "may be a number" in 1.0 feeds; fall back like other kinds.
        guard let id = try FeedText.nonBlank(reader.lenientString("id")) ?? FeedItemIDs.hashed(link, media) else {
            throw ItemProblem(reason: "has no id, url or image to identify it by")
        }
        let tagValues = reader.value("tags") ?? .array([])
        guard let tagList = tagValues.array else { throw reader.wrongType("tags", expected: "an array", got: tagValues) }
        let tags = try tagList.map { tag throws(ItemProblem) in
            guard let text = tag.string else { throw reader.wrongType("tags[]", expected: "a string", got: tag) }
            return text
        }
        let datePublished = try reader.optionalString("date_published")
        let dateModified = try reader.optionalString("date_modified")
        let html = try reader.optionalString("content_html"), text = try reader.optionalString("content_text")
        let summary = try reader.optionalString("summary")
        return FeedItem(
            id: id, title: try reader.optionalString("title") ?? "", link: link,
            published: (datePublished ?? dateModified).flatMap { FeedDate.parse($0) }, author: authorName(reader.item) ?? feedAuthor,
            tags: FeedText.uniqueTags(tags), description: html ?? text ?? summary,
            mediaURL: media, noImageReason: media == nil ? noImageReason : nil)
    }

    /// An `image/*` attachment first (the file itself; the largest by `size_in_bytes` when there are
    /// several), then `image` (the item's main image), then `banner_image` (decorative, last resort).
    private static func imageURL(_ reader: JSONItemReader) throws(ItemProblem) -> String? {
        let attachments = (reader.value("attachments")?.array ?? []).filter {
            MediaSelection.isImageType($0["mime_type"]?.string) && FeedText.nonBlank($0["url"]?.string) != nil
        }
        let attachment = attachments.max { ($0["size_in_bytes"]?.lenientInt ?? 0) < ($1["size_in_bytes"]?.lenientInt ?? 0) }
        let image = try reader.optionalString("image"), banner = try reader.optionalString("banner_image")
        return attachment?["url"]?.string ?? FeedText.nonBlank(image) ?? FeedText.nonBlank(banner)
    }

    /// 1.1 `authors[0].name`, else 1.0 `author.name`.
    private static func authorName(_ value: JSONValue) -> String? {
        value["authors"]?.array?.first?["name"]?.string ?? value["author"]?["name"]?.string
    }

    private static func resolve(_ reference: String, against base: URL) -> String {
        URL(string: reference, relativeTo: base)?.absoluteString ?? reference
    }
}
