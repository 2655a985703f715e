import Foundation

/// RSS 2.0, Atom and JSON Feed documents whose items each carry a date and one image: for the
/// tests that choose items by age or count.
enum DatedFeed: String, CaseIterable {
    case rss, atom, jsonFeed

    struct Item {
        var id: String
        var date: Date
        var media: String
    }

    var fileName: String {
        switch self {
        case .rss: "feed.rss"
        case .atom: "feed.atom"
        case .jsonFeed: "feed.json"
        }
    }

    /// The document, items in the order given.
    func document(title: String, items: [Item]) -> String {
        switch self {
        case .rss:
            let entries = items.map { item in
                "<item><title>\(item.id)</title><guid>\(item.id)</guid><pubDate>\(Self.rfc822(item.date))</pubDate>"
                    + "<enclosure url=\"\(item.media)\" length=\"1\" type=\"image/jpeg\"/></item>"
            }
            return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title><link>https://example.org/</link>\n"
                + entries.joined(separator: "\n") + "\n</channel></rss>"
        case .atom:
            let entries = items.map { item in
                "<entry><title>\(item.id)</title><id>\(item.id)</id><updated>\(Self.iso(item.date))</updated>"
                    + "<published>\(Self.iso(item.date))</published>"
                    + "<link rel=\"enclosure\" type=\"image/jpeg\" href=\"\(item.media)\"/></entry>"
            }
            return "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>\(title)</title>"
                + "<id>urn:feed</id><updated>2026-11-01T00:00:00Z</updated>\n" + entries.joined(separator: "\n") + "\n</feed>"
        case .jsonFeed:
            let entries = items.map { item in
                "{\"id\": \"\(item.id)\", \"title\": \"\(item.id)\", \"date_published\": \"\(Self.iso(item.date))\", "
                    + "\"image\": \"\(item.media)\"}"
            }
            return "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"\(title)\", \"items\": [\n"
                + entries.joined(separator: ",\n") + "\n]}"
        }
    }

    func write(title: String, items: [Item], to url: URL) throws {
        try Data(document(title: title, items: items).utf8).write(to: url)
    }

    static func iso(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// A local server with a few real photos and a dated feed of them: `count` items, one a day back
/// from `newest`, listed oldest first (so "the newest N" is not "the first N").
struct DatedSite {
    let site: FeedSite
    let server: FixtureServer
    let newest: Date

    init(photos count: Int, newest: Date = Date(timeIntervalSince1970: 1_793_000_000)) throws {
        site = try FeedSite(photos: try Paths.photos(count: count))
        server = try FixtureServer(root: site.root)
        self.newest = newest
    }

    /// Item `i` is `i` days older than `newest`, its image the i-th photo (cycling).
    func items(_ count: Int) -> [DatedFeed.Item] {
        (0..<count).map { day in
            DatedFeed.Item(id: "item-\(day)", date: newest.addingTimeInterval(-Double(day) * 86_400),
                           media: server.url("photos/\(site.photoNames[day % site.photoNames.count])"))
        }.reversed()
    }

    /// Writes the feed of `kind` and returns its URL.
    func feed(_ kind: DatedFeed, items count: Int, title: String = "Dated") throws -> String {
        try kind.write(title: title, items: items(count), to: site.root.appendingPathComponent(kind.fileName))
        return server.url(kind.fileName)
    }
}
