import Foundation

/// RSS 2.0 (and the RSS 1.0/RDF layout, whose items sit beside the channel) with Media RSS,
/// Dublin Core and Flickr's `format=rss2` extensions.
enum RSSFeed {
    static let noImageReason = "RSS item has no image (no image media:content, image enclosure or media:thumbnail)"

    static func parse(_ root: XMLTreeElement) -> ParsedFeed {
        let channel = rssChildren(of: root, "channel").first ?? root
        let itemElements = rssChildren(of: channel, "item") + (channel.name == "channel" ? rssChildren(of: root, "item") : [])
        var collector = ItemCollector()
        for (index, element) in itemElements.enumerated() {
            collector.add(index: index, id: FeedText.nonBlank(rssText(element, "guid"))) { () throws(ItemProblem) in
                try item(element)
            }
        }
        return ParsedFeed(kind: .rss, title: rssText(channel, "title") ?? "",
                          link: rssText(channel, "link").map(channel.resolve),
                          items: collector.uniqueItems, invalid: collector.invalid)
    }

    private static func item(_ element: XMLTreeElement) throws(ItemProblem) -> FeedItem {
        let guid = rssText(element, "guid")
        let permalinkGUID = element.child(XMLNamespace.none, "guid")?.attributes["isPermaLink"] != "false" ? guid : nil
        let link = (rssText(element, "link") ?? permalinkGUID).map(element.resolve)
        // A full-size media:content beats an enclosure, which beats a thumbnail.
        let media = MediaSelection.largestContent(in: element) ?? imageEnclosure(in: element)
            ?? MediaSelection.largestThumbnail(in: element)
        guard let id = guid ?? FeedItemIDs.hashed(link, media) else {
            throw ItemProblem(reason: "has no guid, link or image to identify it by")
        }
        let published = (rssText(element, "pubDate") ?? element.childText(XMLNamespace.dublinCore, "date"))
            .flatMap { FeedDate.parse($0) }
        let author = rssText(element, "author").flatMap(FeedText.authorName(from:))
            ?? element.childText(XMLNamespace.dublinCore, "creator")
            ?? element.childText(XMLNamespace.media, "credit")
        let description = element.child(XMLNamespace.content, "encoded")?.text ?? rssElement(element, "description")?.text
            ?? element.child(XMLNamespace.media, "description")?.text
        return FeedItem(
            id: id, title: rssText(element, "title") ?? element.childText(XMLNamespace.media, "title") ?? "",
            link: link, published: published,
            dateTaken: element.childText(XMLNamespace.dublinCore, "date.Taken").flatMap { FeedDate.parse($0) },
            author: author, tags: tags(of: element), description: description,
            mediaURL: media, noImageReason: media == nil ? noImageReason : nil)
    }

    /// `<category>` texts, plus Media RSS categories; Flickr's `scheme="urn:flickr:tags"` holds
    /// several space-separated tags in one element.
    private static func tags(of element: XMLTreeElement) -> [String] {
        let plain = element.children(XMLNamespace.none, "category").map(\.text)
        let media = element.children(XMLNamespace.media, "category").flatMap { category in
            category.attributes["scheme"] == "urn:flickr:tags" ? FeedText.splitTags(category.text) : [category.text]
        }
        return FeedText.uniqueTags(plain + media + element.children(XMLNamespace.dublinCore, "subject").map(\.text))
    }

    private static func imageEnclosure(in element: XMLTreeElement) -> String? {
        element.children(XMLNamespace.none, "enclosure")
            .first { MediaSelection.isImageType($0.attributes["type"]) && FeedText.nonBlank($0.attributes["url"]) != nil }
            .flatMap { enclosure in enclosure.attributes["url"].map(enclosure.resolve) }
    }

    // RSS 2.0 elements have no namespace; RSS 1.0 puts the same names in its own.
    private static func rssChildren(of element: XMLTreeElement, _ name: String) -> [XMLTreeElement] {
        element.children.filter { $0.name == name && ($0.namespace == XMLNamespace.none || $0.namespace == XMLNamespace.rss1) }
    }

    private static func rssElement(_ element: XMLTreeElement, _ name: String) -> XMLTreeElement? {
        rssChildren(of: element, name).first
    }

    private static func rssText(_ element: XMLTreeElement, _ name: String) -> String? {
        FeedText.nonBlank(rssElement(element, name)?.text)
    }
}
