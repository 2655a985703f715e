import Foundation

/// A folder of real photos plus a Flickr public feed (JSONP, with Flickr's invalid `\'`
/// escape) that names them, ready for a `FixtureServer`.
struct FeedSite {
    let root: URL
    let photoNames: [String]

    init(photos: [URL]) throws {
        root = try Paths.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        for photo in photos {
            try FileManager.default.copyItem(at: photo, to: root.appendingPathComponent("photos/\(photo.lastPathComponent)"))
        }
        photoNames = photos.map(\.lastPathComponent)
    }

    /// Writes `path` as a Flickr JSONP feed whose media URLs point at `base` (the server's origin).
    /// `extraMedia` adds items whose media URL is given verbatim (for failures).
    func writeFlickrFeed(at path: String, base: String, names: [String]? = nil, extraMedia: [String] = []) throws {
        var items: [String] = []
        for (number, name) in (names ?? photoNames).enumerated() {
            items.append(Self.item(number: number, title: "\(name) isn\\'t it \\\\'lovely\\\\'", media: "\(base)/photos/\(name)"))
        }
        for (offset, media) in extraMedia.enumerated() {
            items.append(Self.item(number: 900 + offset, title: "extra \(offset)", media: media))
        }
        let feed = """
        jsonFlickrFeed({
        \t"title": "Uploads tagged test",
        \t"link": "https://www.flickr.com/photos/tags/test/",
        \t"description": "",
        \t"modified": "2026-11-01T12:00:00Z",
        \t"generator": "https://www.flickr.com/",
        \t"items": [\(items.joined(separator: ",\n"))]
        })
        """
        try Data(feed.utf8).write(to: root.appendingPathComponent(path))
    }

    private static func item(number: Int, title: String, media: String) -> String {
        """
        {
        \t"title": "\(title)",
        \t"link": "https://www.flickr.com/photos/tester/\(70000 + number)/",
        \t"media": {"m":"\(media)"},
        \t"date_taken": "2026-10-30T10:00:0\(number % 10)-08:00",
        \t"description": " <p>photo \(number)<\\/p>",
        \t"published": "2026-11-01T12:00:00Z",
        \t"author": "nobody@flickr.com (\\"tester\\")",
        \t"author_id": "1@N00",
        \t"tags": "test photo"
        }
        """
    }
}

extension FeedSite {
    struct Item {
        var title: String
        var media: String
        var link = "https://www.flickr.com/photos/tester/1/"
        var description = " <p>a photo</p>"
    }

    /// Writes a Flickr JSON feed (strict JSON, escaped by JSONSerialization) of arbitrary items.
    func writeFlickrFeed(at path: String, items: [Item]) throws {
        let objects: [[String: Any]] = items.enumerated().map { number, item in
            ["title": item.title, "link": item.link, "media": ["m": item.media],
             "date_taken": "2026-10-30T10:00:00-08:00", "description": item.description,
             "published": "2026-11-01T12:00:0\(number % 10)Z", "author": "nobody@flickr.com (\"tester\")",
             "author_id": "1@N00", "tags": "test"]
        }
        let feed: [String: Any] = ["title": "Uploads with faults", "link": "https://www.flickr.com/photos/tags/test/",
                                   "description": "", "modified": "2026-11-01T12:00:00Z",
                                   "generator": "https://www.flickr.com/", "items": objects]
        try JSONSerialization.data(withJSONObject: feed).write(to: root.appendingPathComponent(path))
    }
}
