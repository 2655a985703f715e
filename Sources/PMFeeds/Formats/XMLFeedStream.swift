import Foundation

/// An RSS or Atom document read as it is parsed (`FeedParser.stream`): each item is mapped and
/// handed over as soon as its element is complete, and not kept, so a 100 000-item feed costs
/// its bytes and one item at a time. Only where that gives what reading the whole tree gives
/// (`RSSFeed`, `AtomFeed`); otherwise the document is read whole.
enum XMLFeedStream {
    /// The feed without its items, which went to `item` in feed order; nil when the document is
    /// not one to read this way (not well-formed, no plain RSS or Atom root, no items where the
    /// mapping looks first, or items whose order or fields depend on what follows them), after
    /// which the items handed over so far are void.
    static func read(_ utf8: [UInt8], baseURL: URL, item: @escaping (FeedItem) throws -> Void) throws -> ParsedFeed? {
        let handOff = ItemHandOff(emit: item)
        let root: XMLTreeElement?
        do {
            root = try XMLDocumentReader.stream(utf8, baseURL: baseURL) { element, open in
                try handOff.take(element, open: open)
            }
        } catch is ItemHandOff.NotStreamable {
            return nil
        }
        guard let root, handOff.items.listed > 0 else { return nil }
        var feed: ParsedFeed
        let listing: String
        switch ItemHandOff.Layout(root) {
        case .rss:
            feed = RSSFeed.fields(root: root)
            listing = "RSS document has \(handOff.items.listed) <item> elements"
        case .atom:
            feed = AtomFeed.fields(root: root)
            listing = "Atom document has \(handOff.items.listed) <entry> elements"
        case nil:
            return nil
        }
        (feed.invalid, feed.warnings) = (handOff.items.invalid, handOff.items.warnings.messages)
        // Not one item could be read: the feed is misread, as `requiringReadableItems` says.
        if handOff.items.valid == 0 { feed = try feed.requiringReadableItems(listed: handOff.items.listed, listing) }
        return feed
    }
}

/// Takes the items of an RSS or Atom document off the tree as they are complete: RSS `<item>`s of
/// the first `<channel>` (a later channel's are not the feed's) and of the root once a channel
/// was read, Atom `<entry>`s of the root once its `<author>` was (their author falls back to it).
private final class ItemHandOff {
    struct NotStreamable: Error {}

    enum Layout {
        case rss
        case atom(namespace: String)

        init?(_ root: XMLTreeElement) {
            switch (root.namespace, root.name) {
            case (XMLNamespace.none, "rss"), (XMLNamespace.userlandRSS2, "rss"), (XMLNamespace.rdf, "RDF"): self = .rss
            case (XMLNamespace.atom, "feed"), (XMLNamespace.atom03, "feed"): self = .atom(namespace: AtomFeed.namespace(of: root))
            default: return nil
            }
        }
    }

    private(set) var items: StreamedItems
    private var layout: Layout?
    private var channelsRead = 0
    private var authorRead = false
    private var feedAuthor: String?

    init(emit: @escaping (FeedItem) throws -> Void) {
        items = StreamedItems(emit: emit)
    }

    /// Whether `element` (complete, with `open` around it, the root first) was an item taken.
    func take(_ element: XMLTreeElement, open: [XMLTreeElement]) throws -> Bool {
        if layout == nil {
            guard let found = Layout(open[0]) else { throw NotStreamable() }
            layout = found
        }
        switch layout {
        case .rss?:
            let isItem = RSSFeed.isRSS(element.namespace, element.name, is: "item")
            if open.count == 1 {
                if RSSFeed.isRSS(element.namespace, element.name, is: "channel") { channelsRead += 1 }
                guard isItem else { return false }
                // The root's items follow the first channel's: before one, their place is unknown.
                guard channelsRead > 0 else { throw NotStreamable() }
            } else {
                guard isItem, open.count == 2, RSSFeed.isRSS(open[1].namespace, open[1].name, is: "channel") else { return false }
                // The items of a second channel are not the feed's.
                guard channelsRead == 0 else { return true }
            }
            try items.add(id: RSSFeed.itemID(element)) { () throws(ItemProblem) in try RSSFeed.item(element) }
            return true
        case .atom(let atom)?:
            guard open.count == 1, element.namespace == atom else { return false }
            if element.name == "author", !authorRead {
                authorRead = true
                feedAuthor = element.childText(atom, "name")
                // Entries read before it would have had no author to fall back on.
                if items.listed > 0 { throw NotStreamable() }
                return false
            }
            guard element.name == "entry" else { return false }
            let (author, warnings) = (feedAuthor, items.warnings)
            try items.add(id: element.childText(atom, "id")) { () throws(ItemProblem) in
                try AtomFeed.item(element, atom: atom, feedAuthor: author, warnings: warnings)
            }
            return true
        case nil:
            throw NotStreamable()
        }
    }
}
