import Foundation

/// RSS 2.0 (also in Userland's namespace), RSS 1.0 and RSS 0.90 (RDF layouts, whose items sit
/// beside the channel) with Media RSS, iTunes/Google Play podcast, Dublin Core and Flickr's
/// `format=rss2` extensions.
enum RSSFeed {
    static let noImageReason = "RSS item has no image (no image media:content, enclosure, itunes:image, "
        + "googleplay:image, <img> in its HTML or media:thumbnail)"

    /// The namespaces RSS's own elements come in: none (2.0), RSS 1.0, RSS 0.90, Userland's 2.0.
    private static let namespaces: Set<String> = [XMLNamespace.none, XMLNamespace.rss1, XMLNamespace.rss090, XMLNamespace.userlandRSS2]

    /// The feed, or a `FeedError` when it lists items of which not one could be read.
    static func read(_ root: XMLTreeElement) throws(FeedError) -> ParsedFeed {
        let (feed, listed) = map(root)
        return try feed.requiringReadableItems(listed: listed, "RSS document has \(listed) <item> elements")
    }


    private static func map(_ root: XMLTreeElement) -> (feed: ParsedFeed, listed: Int) {
        let channel = rssChildren(of: root, "channel").first ?? root
        var itemElements = rssChildren(of: channel, "item") + (channel.name == "channel" ? rssChildren(of: root, "item") : [])
        if itemElements.isEmpty {
            itemElements = channel.outermostDescendants { $0.name == "item" && namespaces.contains($0.namespace) }
        }
        var collector = ItemCollector()
        for (index, element) in itemElements.enumerated() {
            collector.add(index: index, id: itemID(element)) { () throws(ItemProblem) in
                try item(element)
            }
        }
        var feed = fields(root: root)
        (feed.items, feed.invalid) = (collector.uniqueItems, collector.invalid)
        return (feed, itemElements.count)
    }

    /// The feed without its items: the channel's title, link, image and `<ttl>`.
    static func fields(root: XMLTreeElement) -> ParsedFeed {
        let channel = rssChildren(of: root, "channel").first ?? root
        return ParsedFeed(kind: .rss, title: rssText(channel, "title") ?? "", link: rssText(channel, "link").map(channel.resolve),
                          items: [], image: feedImage(root: root, channel: channel), timeToLive: timeToLive(rssText(channel, "ttl")))
    }

    /// RSS's own elements are in one of `namespaces`.
    static func isRSS(_ namespace: String, _ name: String, is wanted: String) -> Bool {
        name == wanted && namespaces.contains(namespace)
    }

    /// The id an item that cannot be read is named by.
    static func itemID(_ element: XMLTreeElement) -> String? {
        FeedText.nonBlank(rssText(element, "guid"))
    }

    /// `<ttl>` is whole minutes (RSS 2.0); a week at most, so one mistyped feed cannot stop being polled.
    static func timeToLive(_ text: String?) -> Double? {
        guard let text, let minutes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), minutes > 0 else { return nil }
        return Double(min(minutes, 7 * 24 * 60)) * 60
    }

    static func item(_ element: XMLTreeElement) throws(ItemProblem) -> FeedItem {
        let guid = rssText(element, "guid")
        let permalinkGUID = rssElement(element, "guid")?.attributes["isPermaLink"] != "false" ? guid : nil
        // RSS 1.0 items name themselves in `rdf:about` (usually the link again).
        let link = (rssText(element, "link") ?? permalinkGUID ?? rdfAbout(element)).map(element.resolve)
        let html = [rssElement(element, "description"), element.child(XMLNamespace.content, "encoded")].compactMap { $0 }
        let media = XMLItemMedia.media(of: element, enclosures: rssChildren(of: element, "enclosure"), urlAttribute: "url",
                                       html: html, link: link)
        let title = rssText(element, "title") ?? element.childText(XMLNamespace.media, "title")
        let date = rssText(element, "pubDate") ?? element.childText(XMLNamespace.dublinCore, "date")
        let description = element.child(XMLNamespace.content, "encoded")?.text ?? rssElement(element, "description")?.text
            ?? element.child(XMLNamespace.media, "description")?.text
        let id = guid ?? FeedItemIDs.hashed(link, media.first?.url)
            ?? FeedItemIDs.contentHashed(title: title, date: date, description: description)
        let author = rssText(element, "author").flatMap(FeedText.authorName(from:))
            ?? element.childText(XMLNamespace.dublinCore, "creator")
            ?? element.childText(XMLNamespace.media, "credit")
        return FeedItem(
            id: id, title: title ?? "", link: link, published: date.flatMap { FeedDate.parse($0) },
            dateTaken: element.childText(XMLNamespace.dublinCore, "date.Taken").flatMap { FeedDate.parse($0) },
            author: author, tags: tags(of: element), description: description,
            media: media, noImageReason: media.isEmpty ? noImageReason : nil)
    }

    /// `<channel><image><url>`, then RSS 1.0's `<image>` beside the channel (its `url`, else its
    /// `rdf:about`), then the channel's `itunes:image`.
    private static func feedImage(root: XMLTreeElement, channel: XMLTreeElement) -> String? {
        let images = rssChildren(of: channel, "image") + (channel.name == "channel" ? rssChildren(of: root, "image") : [])
        for image in images {
            if let url = rssText(image, "url") ?? rdfAbout(image) { return image.resolve(url) }
        }
        return XMLItemMedia.imageReference(channel.child(XMLNamespace.itunes, "image"))
    }

    /// `rdf:about`, whatever prefix the document gave the RDF namespace (attributes are keyed by
    /// their written name).
    private static func rdfAbout(_ element: XMLTreeElement) -> String? {
        FeedText.nonBlank(element.attributes.first { $0.key.hasSuffix(":about") }?.value)
    }

    /// `<category>` texts, plus Media RSS categories; Flickr's `scheme="urn:flickr:tags"` holds
    /// several space-separated tags in one element.
    private static func tags(of element: XMLTreeElement) -> [String] {
        let plain = rssChildren(of: element, "category").map(\.text)
        let media = element.children(XMLNamespace.media, "category").flatMap { category in
            category.attributes["scheme"] == "urn:flickr:tags" ? FeedText.splitTags(category.text) : [category.text]
        }
        return FeedText.uniqueTags(plain + media + element.children(XMLNamespace.dublinCore, "subject").map(\.text))
    }

    private static func rssChildren(of element: XMLTreeElement, _ name: String) -> [XMLTreeElement] {
        element.children.filter { $0.name == name && namespaces.contains($0.namespace) }
    }

    private static func rssElement(_ element: XMLTreeElement, _ name: String) -> XMLTreeElement? {
        element.children.first { $0.name == name && namespaces.contains($0.namespace) }
    }

    private static func rssText(_ element: XMLTreeElement, _ name: String) -> String? {
        FeedText.nonBlank(rssElement(element, name)?.text)
    }
}
