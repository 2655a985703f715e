import Foundation

/// Atom 1.0 and Atom 0.3, including Flickr's `photos_public.gne` default output (image in
/// `<link rel="enclosure">`) and GitHub-style feeds (relative links, `media:thumbnail`).
enum AtomFeed {
    static let noImageReason = "Atom entry has no image (no image media:content, enclosure link, itunes:image, "
        + "googleplay:image, <img> in its content or media:thumbnail)"

    /// The feed, or a `FeedError` when it lists entries of which not one could be read.
    static func read(_ root: XMLTreeElement) throws(FeedError) -> ParsedFeed {
        let (feed, listed) = map(root)
        return try feed.requiringReadableItems(listed: listed, "Atom document has \(listed) <entry> elements")
    }


    private static func map(_ root: XMLTreeElement) -> (feed: ParsedFeed, listed: Int) {
        // Atom 0.3 uses the same element names as 1.0 for everything read here but the dates.
        let atom = root.namespace == XMLNamespace.atom03 ? XMLNamespace.atom03 : XMLNamespace.atom
        let feedAuthor = root.child(atom, "author")?.childText(atom, "name")
        var entries = root.children(atom, "entry")
        if entries.isEmpty { entries = root.outermostDescendants { $0.name == "entry" && $0.namespace == atom } }
        var collector = ItemCollector()
        let warnings = collector.warnings
        for (index, entry) in entries.enumerated() {
            collector.add(index: index, id: entry.childText(atom, "id")) { () throws(ItemProblem) in
                try item(entry, atom: atom, feedAuthor: feedAuthor, warnings: warnings)
            }
        }
        var feed = fields(root: root)
        (feed.items, feed.invalid, feed.warnings) = (collector.uniqueItems, collector.invalid, warnings.messages)
        return (feed, entries.count)
    }

    /// The feed without its entries: its title, link and image.
    static func fields(root: XMLTreeElement) -> ParsedFeed {
        let atom = namespace(of: root)
        let image = (root.childText(atom, "logo") ?? root.childText(atom, "icon")).map(root.resolve)
        return ParsedFeed(kind: .atom, title: root.childText(atom, "title") ?? "", link: alternateLink(of: root, atom),
                          items: [], image: image)
    }

    /// Atom 0.3 uses the same element names as 1.0 for everything read here but the dates.
    static func namespace(of root: XMLTreeElement) -> String {
        root.namespace == XMLNamespace.atom03 ? XMLNamespace.atom03 : XMLNamespace.atom
    }

    static func item(_ entry: XMLTreeElement, atom: String, feedAuthor: String?,
                     warnings: ItemWarnings) throws(ItemProblem) -> FeedItem {
        let link = alternateLink(of: entry, atom)
        let content = entry.child(atom, "content"), summary = entry.child(atom, "summary")
        let enclosures = entry.children(atom, "link").filter { $0.attributes["rel"] == "enclosure" }
        let html = [content, summary].compactMap { $0 }.filter { holdsHTML($0, warnings: warnings) }
        let media = XMLItemMedia.media(of: entry, enclosures: enclosures, urlAttribute: "href", html: html, link: link)
        // Entries without `published` (GitHub's) still carry the required `updated`; Atom 0.3's
        // `issued` is its publication date, `modified` its required one.
        let date = ["published", "issued", "created", "updated", "modified"].lazy.compactMap { entry.childText(atom, $0) }.first
        let title = entry.childText(atom, "title")
        let description = AtomContent.text(content ?? summary)
        let id = entry.childText(atom, "id") ?? FeedItemIDs.hashed(link, media.first?.url)
            ?? FeedItemIDs.contentHashed(title: title, date: date, description: description)
        let taken = entry.childText(XMLNamespace.flickr, "date_taken") ?? entry.childText(XMLNamespace.dublinCore, "date.Taken")
        let tags = entry.children(atom, "category").compactMap { $0.attributes["term"] ?? $0.attributes["label"] }
        return FeedItem(
            id: id, title: title ?? "", link: link, published: date.flatMap { FeedDate.parse($0) },
            dateTaken: taken.flatMap { FeedDate.parse($0) },
            author: entry.child(atom, "author")?.childText(atom, "name") ?? feedAuthor,
            tags: FeedText.uniqueTags(tags), description: description,
            media: media, noImageReason: media.isEmpty ? noImageReason : nil)
    }

    /// `type="html"`/`"xhtml"` (Atom 1.0) or an HTML MIME type (Atom 0.3). Without a type both
    /// versions mean plain text, where `<img` is words, not an image; but feeds that leave the
    /// type out carry escaped HTML, so an untyped element holding markup (elements of its own,
    /// or text that `HTMLSniffer` takes for HTML, as feedparser does) is read as HTML, with a
    /// warning when that gives it images to offer (otherwise the guess changed nothing).
    private static func holdsHTML(_ element: XMLTreeElement, warnings: ItemWarnings) -> Bool {
        if let type = element.attributes["type"] { return type.lowercased().contains("html") }
        guard !element.children.isEmpty || HTMLSniffer.looksLikeHTML(element.text) else { return false }
        if HTMLContent.mayHoldImages(element) {
            warnings.note("untyped " + element.name, "Atom <\(element.name)> without type= holds markup: read as HTML for its images")
        }
        return true
    }

    /// `rel="alternate"` or no `rel` (which RFC 4287 defines as alternate), resolved against xml:base and the feed URL.
    private static func alternateLink(of element: XMLTreeElement, _ atom: String) -> String? {
        element.children(atom, "link")
            .first { ($0.attributes["rel"] ?? "alternate") == "alternate" && $0.attributes["href"] != nil }
            .flatMap { link in link.attributes["href"].map(link.resolve) }
    }
}
