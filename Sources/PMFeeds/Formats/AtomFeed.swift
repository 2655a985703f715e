import Foundation

/// Atom 1.0, including Flickr's `photos_public.gne` default output (image in
/// `<link rel="enclosure">`) and GitHub-style feeds (relative links, `media:thumbnail`).
enum AtomFeed {
    static let noImageReason = "Atom entry has no image (no image enclosure link, media:content or media:thumbnail)"
    private static let atom = XMLNamespace.atom

    static func parse(_ root: XMLTreeElement) -> ParsedFeed {
        let feedAuthor = root.child(atom, "author")?.childText(atom, "name")
        var collector = ItemCollector()
        for (index, entry) in root.children(atom, "entry").enumerated() {
            collector.add(index: index, id: entry.childText(atom, "id")) { () throws(ItemProblem) in
                try item(entry, feedAuthor: feedAuthor)
            }
        }
        return ParsedFeed(kind: .atom, title: root.childText(atom, "title") ?? "", link: alternateLink(of: root),
                          items: collector.uniqueItems, invalid: collector.invalid)
    }

    private static func item(_ entry: XMLTreeElement, feedAuthor: String?) throws(ItemProblem) -> FeedItem {
        let link = alternateLink(of: entry)
        let media = imageEnclosure(of: entry) ?? MediaSelection.largestContent(in: entry)
            ?? MediaSelection.largestThumbnail(in: entry)
        guard let id = entry.childText(atom, "id") ?? FeedItemIDs.hashed(link, media) else {
            throw ItemProblem(reason: "has no id, link or image to identify it by")
        }
        // Entries without `published` (GitHub's) still carry the required `updated`.
        let published = (entry.childText(atom, "published") ?? entry.childText(atom, "updated")).flatMap { FeedDate.parse($0) }
        let taken = entry.childText(XMLNamespace.flickr, "date_taken") ?? entry.childText(XMLNamespace.dublinCore, "date.Taken")
        let tags = entry.children(atom, "category").compactMap { $0.attributes["term"] ?? $0.attributes["label"] }
        return FeedItem(
            id: id, title: entry.childText(atom, "title") ?? "", link: link, published: published,
            dateTaken: taken.flatMap { FeedDate.parse($0) },
            author: entry.child(atom, "author")?.childText(atom, "name") ?? feedAuthor,
            tags: FeedText.uniqueTags(tags), description: textConstruct(entry.child(atom, "content") ?? entry.child(atom, "summary")),
            mediaURL: media, noImageReason: media == nil ? noImageReason : nil)
    }

    /// `rel="alternate"` or no `rel` (which RFC 4287 defines as alternate), resolved against xml:base and the feed URL.
    private static func alternateLink(of element: XMLTreeElement) -> String? {
        element.children(atom, "link")
            .first { ($0.attributes["rel"] ?? "alternate") == "alternate" && $0.attributes["href"] != nil }
            .flatMap { link in link.attributes["href"].map(link.resolve) }
    }

    private static func imageEnclosure(of entry: XMLTreeElement) -> String? {
        entry.children(atom, "link")
            .first { $0.attributes["rel"] == "enclosure" && MediaSelection.isImageType($0.attributes["type"])
                && FeedText.nonBlank($0.attributes["href"]) != nil }
            .flatMap { link in link.attributes["href"].map(link.resolve) }
    }

    /// `text` and `html` content arrive as decoded text; for `xhtml` we keep the character data only,
    /// since the description is shown as untrusted text anyway.
    private static func textConstruct(_ element: XMLTreeElement?) -> String? {
        guard let element else { return nil }
        return element.attributes["type"] == "xhtml" ? element.deepText : element.text
    }
}
