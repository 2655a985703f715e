import Foundation

/// A JSON Feed or Flickr public feed read item by item (`FeedParser.stream`): a first reading
/// of the document keeps everything but the items (only the first, which tells Flickr's feed),
/// so the kind, the base URL and the feed's author are known wherever the document puts them; a
/// second hands each item over as it is read. The document's tree is never held. Other JSON
/// (paged APIs, other text encodings) is read whole.
enum JSONFeedStream {
    /// What the first reading found: the document's range, its kind and its top-level object.
    struct Plan: Sendable {
        let range: Range<Int>
        let kind: FeedKind
        let root: JSONValue
    }

    /// The plan for a document to stream; nil when it is read whole.
    static func plan(_ bytes: [UInt8]) -> Plan? {
        let start = JSONPUnwrapper.skipWhitespace(bytes, from: 0)
        guard start < bytes.count else { return nil }
        let range: Range<Int>
        if bytes[start] == UInt8(ascii: "{") {
            range = start..<bytes.count
        } else if let payload = JSONPUnwrapper.unwrap(bytes, from: start), payload.first == UInt8(ascii: "{") {
            range = payload.indices
        } else {
            return nil
        }
        guard JSONTextEncoding.detect(bytes, in: range) == nil else { return nil }
        var first = true
        guard let root = try? JSONReader.read(bytes, in: range, handingOver: "items", { _ in
            defer { first = false }
            return first
        }), root.object != nil, let kind = FeedDetector.jsonKind(root), kind == .jsonFeed || kind == .flickrPublic
        else { return nil }
        return Plan(range: range, kind: kind, root: root)
    }

    /// The feed without its items, which went to `item` in feed order.
    static func read(_ bytes: [UInt8], plan: Plan, url: URL, item: @escaping (FeedItem) throws -> Void) throws -> ParsedFeed {
        var items = StreamedItems(emit: item)
        let warnings = items.warnings
        switch plan.kind {
        case .jsonFeed:
            let (base, author) = (JSONFeed.base(plan.root, url: url), JSONFeed.authorName(plan.root))
            _ = try JSONReader.read(bytes, in: plan.range, handingOver: "items") { entry in
                try items.add(id: entry["id"]?.lenientString) { () throws(ItemProblem) in
                    JSONFeed.item(JSONItemReader(item: entry, warnings: warnings), base: base, feedAuthor: author)
                }
                return false
            }
            var feed = JSONFeed.fields(plan.root, base: base)
            (feed.invalid, feed.warnings) = (items.invalid, warnings.messages)
            if items.valid == 0 { feed = try feed.requiringReadableItems(listed: items.listed, "JSON Feed has \(items.listed) items") }
            return feed
        default:
            _ = try JSONReader.read(bytes, in: plan.range, handingOver: "items") { entry in
                let reader = JSONItemReader(item: entry, warnings: warnings)
                try items.add(id: FlickrPublicFeed.itemID(reader)) { () throws(ItemProblem) in try FlickrPublicFeed.item(reader) }
                return false
            }
            var feed = FlickrPublicFeed.fields(plan.root)
            (feed.invalid, feed.warnings) = (items.invalid, warnings.messages)
            return feed
        }
    }
}
