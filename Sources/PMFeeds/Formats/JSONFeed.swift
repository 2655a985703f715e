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
    static let noImageReason = "JSON Feed item has no image (no image attachment, image, <img> in content_html "
        + "or summary, or banner_image)"

    /// The feed, or a `FeedError` when it lists items of which not one could be read.
    static func read(_ root: JSONValue, url: URL) throws(FeedError) -> ParsedFeed {
        let (feed, listed) = map(root, url: url)
        return try feed.requiringReadableItems(listed: listed, "JSON Feed has \(listed) items")
    }


    private static func map(_ root: JSONValue, url: URL) -> (feed: ParsedFeed, listed: Int) {
        let (base, feedAuthor) = (base(root, url: url), authorName(root))
        var collector = ItemCollector()
        let warnings = collector.warnings
        let entries = root["items"]?.array ?? []
        for (index, entry) in entries.enumerated() {
            collector.add(index: index, id: entry["id"]?.lenientString) { () throws(ItemProblem) in
                item(JSONItemReader(item: entry, warnings: warnings), base: base, feedAuthor: feedAuthor)
            }
        }
        var feed = fields(root, base: base)
        (feed.items, feed.invalid) = (collector.uniqueItems, collector.invalid)
        feed.warnings = collector.warnings.messages
        return (feed, entries.count)
    }

    /// What relative URLs resolve against: the feed's own `feed_url`, else where it was fetched.
    static func base(_ root: JSONValue, url: URL) -> URL {
        root["feed_url"]?.string.flatMap { URL(string: $0, relativeTo: url) } ?? url
    }

    /// The feed without its items: title, home page and icon.
    static func fields(_ root: JSONValue, base: URL) -> ParsedFeed {
        let image = (FeedText.nonBlank(root["icon"]?.string) ?? FeedText.nonBlank(root["favicon"]?.string))
            .map { resolve($0, against: base) }
        return ParsedFeed(kind: .jsonFeed, title: root["title"]?.string ?? "",
                          link: root["home_page_url"]?.string.map { resolve($0, against: base) }, items: [], image: image)
    }

    /// Never fails: every field but `id` is optional, and an item without a usable `id` is named
    /// as other kinds' are.
    static func item(_ reader: JSONItemReader, base: URL, feedAuthor: String?) -> FeedItem {
        let link = reader.optionalString("url").map { resolve($0, against: base) }
        let tags = reader.optionalStrings("tags")
        let datePublished = reader.optionalString("date_published")
        let dateModified = reader.optionalString("date_modified")
        let html = reader.optionalString("content_html"), text = reader.optionalString("content_text")
        let summary = reader.optionalString("summary"), title = reader.optionalString("title")
        let media = self.media(reader, html: [html, summary].compactMap { $0 }, link: link, base: base)
        // `id` is required by the spec and "may be a number" in 1.0 feeds; fall back like other kinds.
        let id = FeedText.nonBlank(reader.lenientString("id")) ?? FeedItemIDs.hashed(link, media.first?.url)
            ?? FeedItemIDs.contentHashed(title: title, date: datePublished ?? dateModified, description: html ?? text ?? summary)
        return FeedItem(
            id: id, title: title ?? "", link: link,
            published: (datePublished ?? dateModified).flatMap { FeedDate.parse($0) }, author: authorName(reader.item) ?? feedAuthor,
            tags: FeedText.uniqueTags(tags), description: html ?? text ?? summary,
            media: media, noImageReason: media.isEmpty ? noImageReason : nil)
    }

    /// `image/*` attachments first (the files themselves, largest `size_in_bytes` first), then
    /// `image` (the item's main image), then the `<img>`s of `content_html` and `summary`
    /// (resolved against the item's `url`, then the feed's), then `banner_image`, which is decorative.
    private static func media(_ reader: JSONItemReader, html: [String], link: String?, base: URL) -> [FeedMedia] {
        let attachments = (reader.optionalList("attachments") ?? []).filter {
            MediaSelection.isImageType($0["mime_type"]?.string) && FeedText.nonBlank($0["url"]?.string) != nil
        }
        let bySize = attachments.enumerated().sorted { first, second in
            let (a, b) = (first.element["size_in_bytes"]?.lenientInt ?? 0, second.element["size_in_bytes"]?.lenientInt ?? 0)
            return a != b ? a > b : first.offset < second.offset
        }
        let image = reader.optionalString("image"), banner = reader.optionalString("banner_image")
        var media = ItemMedia()
        media.add(bySize.compactMap { $0.element["url"]?.string.map { resolve($0, against: base) } }, .attachment)
        media.add(FeedText.nonBlank(image).map { resolve($0, against: base) }, .image)
        let htmlBase = link.flatMap { URL(string: $0) } ?? base
        for text in html { media.add(ItemMedia.resolved(HTMLImages.urls(in: text), against: htmlBase), .html) }
        media.add(FeedText.nonBlank(banner).map { resolve($0, against: base) }, .bannerImage)
        return media.media
    }

    /// 1.1 `authors[0].name`, else 1.0 `author.name`.
    static func authorName(_ value: JSONValue) -> String? {
        value["authors"]?.array?.first?["name"]?.string ?? value["author"]?["name"]?.string
    }

    private static func resolve(_ reference: String, against base: URL) -> String {
        URL(string: reference, relativeTo: base)?.absoluteString ?? reference
    }
}
