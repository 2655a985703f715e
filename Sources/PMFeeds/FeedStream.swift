import Foundation

/// A feed document fetched but not read yet: the sync reads it while it stores its items
/// (`FeedParser.stream`), so a feed of 100 000 items is never in memory as items.
public struct FeedDocument: Sendable {
    public let bytes: [UInt8]
    public let url: URL
    public let contentType: String?
    /// For JSON, what a first reading found (`JSONFeedStream`); nil for XML.
    let json: JSONFeedStream.Plan?

    public init(bytes: [UInt8], url: URL, contentType: String?) {
        self.init(bytes: bytes, url: url, contentType: contentType, json: nil)
    }

    init(bytes: [UInt8], url: URL, contentType: String?, json: JSONFeedStream.Plan?) {
        self.bytes = bytes
        self.url = url
        self.contentType = contentType
        self.json = json
    }
}

extension FeedParser {
    /// `bytes` as a document to read on its own with `stream`: one whose kind is never paged
    /// (RSS, Atom, JSON Feed, Flickr's public feed). Nil for a page of a paged API (Flickr REST,
    /// Marvel) and what is not a feed: those are `parse`d, pages merged, errors told.
    public static func document(_ bytes: [UInt8], url: URL, contentType: String?) -> FeedDocument? {
        if XMLCharset.startsWithMarkup(bytes) { return FeedDocument(bytes: bytes, url: url, contentType: contentType) }
        return JSONFeedStream.plan(bytes).map { FeedDocument(bytes: bytes, url: url, contentType: contentType, json: $0) }
    }

    /// `parse`, handing the items to `item` in feed order instead of keeping them: the feed
    /// returned has none. Their ids are the feed's own; a repeated one is the receiver's to make
    /// unique, as `FeedItemIDs.uniqued` does. `restart` says that the items handed so far are void:
    /// the document is read again from its start (a malformed one, repaired). Throws a `FeedError`
    /// for what `parse` refuses, and what `item` or `restart` throw.
    public static func stream(_ document: FeedDocument, restart: () throws -> Void,
                              item: (FeedItem) throws -> Void) throws -> ParsedFeed {
        if let plan = document.json ?? (XMLCharset.startsWithMarkup(document.bytes) ? nil : JSONFeedStream.plan(document.bytes)) {
            var feed = try withoutActuallyEscaping(item) { item in
                try JSONFeedStream.read(document.bytes, plan: plan, url: document.url, item: item)
            }
            if let image = feed.image, !ItemMedia.isFetchable(image) { feed.image = nil }
            return feed
        }
        if XMLCharset.startsWithMarkup(document.bytes) {
            let decoded = XMLCharset.decode(document.bytes, contentType: document.contentType)
            var handed = false
            let streamed = try withoutActuallyEscaping(item) { item in
                try XMLFeedStream.read(decoded.utf8, baseURL: document.url) { each in
                    handed = true
                    try item(each)
                }
            }
            if var feed = streamed {
                feed.warnings = decoded.warnings + feed.warnings
                if let image = feed.image, !ItemMedia.isFetchable(image) { feed.image = nil }
                return feed
            }
            if handed { try restart() }
        }
        var feed = try parse(document.bytes, url: document.url, contentType: document.contentType)
        for each in feed.items { try item(each) }
        feed.items = []
        return feed
    }
}
