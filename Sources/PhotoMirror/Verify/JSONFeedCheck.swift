import Foundation
import PMCache
import PMFeeds

/// What `verify` asks of a feed's `feed.json`. Damage: it does not read as a JSON Feed, or an
/// image it names (relative to itself) is not a file of the cache. Stale: it is missing, or lists
/// other items than the manifest, which is written from the same rows just before it — what a
/// writer killed between the two files, or a cache written before feed.json existed, leaves.
/// Nothing links to a missing one (the feed's pages are written after it, and `verify` checks
/// their links), so stale is not damage; the next sync of the feed or `verify --repair` rewrites
/// it. Pure: the caller reads the file and says which paths exist.
enum JSONFeedCheck {
    struct Problems: Equatable {
        var damage: [String] = []
        var stale: [String] = []
    }

    static func problems(in data: [UInt8]?, path: String, feedURL: String, manifestIDs: Set<String>?,
                         exists: (String) -> Bool) -> Problems {
        var problems = Problems()
        guard let data else {
            problems.stale.append("\(path): JSON Feed of \(feedURL) is missing")
            return problems
        }
        guard let feed = JSONFeedLinks.read(data), feed.version.hasPrefix("https://jsonfeed.org/version/1") else {
            problems.damage.append("\(path): not a valid JSON Feed")
            return problems
        }
        if let manifestIDs, Set(feed.items.map(\.id)) != manifestIDs {
            problems.stale.append("\(path): lists other items than its manifest")
        }
        let folder = (path as NSString).deletingLastPathComponent
        func check(_ link: String, _ owner: String) {
            guard PageLinks.isCacheRelative(link) else { return }
            // Foundation's decoding costs a microsecond per link even with nothing to decode, and a
            // feed of 2000 items has 4000 links.
            let decoded = link.utf8.contains(UInt8(ascii: "%")) ? link.removingPercentEncoding ?? link : link
            guard let target = ReferenceCheck.resolve(decoded, from: folder) else {
                return problems.damage.append("\(path): \(owner) points outside the cache: \(link)")
            }
            if !exists(target) { problems.damage.append("\(path): \(owner) points at missing \(target)") }
        }
        for link in [feed.icon, feed.favicon].compactMap({ $0 }) { check(link, "the feed's icon") }
        for item in feed.items {
            for link in [item.image].compactMap({ $0 }) + (item.attachments ?? []) {
                check(link, "item \(item.id)")
            }
        }
        return problems
    }
}

/// What a JSON Feed links to, and the ids, nothing else.
private struct JSONFeedLinks {
    struct Item {
        var id: String
        var image: String?
        var attachments: [String]?
    }

    var version: String
    var icon: String?
    var favicon: String?
    var items: [Item]

    static func read(_ bytes: [UInt8]) -> JSONFeedLinks? {
        try? JSONFeedLinks(JSONFields(JSONValue.parse(bytes, skipping: unread)))
    }

    /// The text fields, most of a JSON Feed's bytes: checked as JSON, never made into strings.
    /// Not `url`, which an attachment's link is.
    private static let unread: Set<String> = [
        "title", "home_page_url", "feed_url", "description", "user_comment", "content_html", "content_text",
        "summary", "date_published", "date_modified", "authors", "author", "tags", "external_url", "language",
    ]

    private init(_ fields: JSONFields) throws(JSONFields.Invalid) {
        version = try fields.string("version")
        icon = try fields.optionalString("icon")
        favicon = try fields.optionalString("favicon")
        items = try fields.array("items").map { (value) throws(JSONFields.Invalid) in
            let item = try JSONFields(value)
            return Item(id: try item.string("id"), image: try item.optionalString("image"),
                        attachments: try item.optionalArray("attachments")?.map { (value) throws(JSONFields.Invalid) in
                            try JSONFields(value).string("url")
                        })
        }
    }
}
