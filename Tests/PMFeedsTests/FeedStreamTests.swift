import Foundation
import Testing
@testable import PMFeeds

/// `FeedParser.stream` hands the items over as it reads them; what it hands over (ids made unique
/// as `FeedItemIDs.uniqued` does) and the feed it returns are what `parse` gives, for every input:
/// the fixtures, the fuzzer's regressions and seeds, documents laid out to stop it streaming, and
/// `PHOTOMIRROR_FEED_CORPUS` (a folder, e.g. the fuzzer's corpus) when set.
@Suite struct FeedStreamTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let url = URL(string: "https://example.org/feeds/feed.xml")!

    struct Outcome: Equatable {
        var kind: FeedKind, title: String, link: String?, attribution: String?, image: String?
        var items: [FeedItem], invalid: [InvalidItem], paging: Paging?, warnings: [String], timeToLive: Double?

        init(_ feed: ParsedFeed, items: [FeedItem]) {
            (kind, title, link, attribution, image) = (feed.kind, feed.title, feed.link, feed.attribution, feed.image)
            (self.items, invalid, paging, warnings, timeToLive) = (items, feed.invalid, feed.paging, feed.warnings, feed.timeToLive)
        }
    }

    enum Read: Equatable {
        case feed(Outcome)
        case failed(String)
    }

    /// The parse's outcome or its error, both ways, and how often streaming started again.
    static func both(_ bytes: [UInt8]) -> (whole: Read, streamed: Read, restarts: Int) {
        let whole: Read
        do {
            let feed = try FeedParser.parse(bytes, url: url)
            whole = .feed(Outcome(feed, items: feed.items))
        } catch {
            whole = .failed("\(error)")
        }
        var items: [FeedItem] = [], restarts = 0
        let streamed: Read
        do {
            let feed = try FeedParser.stream(FeedDocument(bytes: bytes, url: url, contentType: nil), restart: {
                items = []
                restarts += 1
            }, item: { items.append($0) })
            streamed = feed.items.isEmpty ? .feed(Outcome(feed, items: FeedItemIDs.uniqued(items))) : .failed("items kept")
        } catch {
            streamed = .failed("\(error)")
        }
        return (whole, streamed, restarts)
    }

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    @Test func everyInputGivesWhatParsingGives() throws {
        var folders = [Fixtures.directory, Self.root.appendingPathComponent("Fuzz/regressions/feeds"),
                       Self.root.appendingPathComponent("Tests/Fixtures/RealFeeds")]
        let seeds = Self.root.appendingPathComponent("Fuzz/seeds")
        folders += ((try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []).map { seeds.appendingPathComponent($0) }
        if let corpus = ProcessInfo.processInfo.environment["PHOTOMIRROR_FEED_CORPUS"] { folders.append(URL(fileURLWithPath: corpus)) }
        var compared = 0
        for folder in folders {
            for file in Self.files(in: folder) {
                let (whole, streamed, _) = Self.both(Array(try Data(contentsOf: file)))
                #expect(whole == streamed, "\(file.path)")
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    static func rss(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\"?><rss version=\"2.0\">\(body)</rss>".utf8)
    }

    static func item(_ id: String) -> String {
        "<item><title>photo \(id)</title><guid>\(id)</guid><enclosure url=\"http://img.test/\(id).jpg\" type=\"image/jpeg\"/></item>"
    }

    @Test func plainFeedsAreStreamedAndLaidOutOnesAreReadWhole() {
        let channel = "<channel><title>t</title>\(Self.item("a"))\(Self.item("a"))\(Self.item("b"))</channel>"
        let atomHead = "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>"
        let entry = "<entry><id>e1</id><title>x</title><link rel=\"enclosure\" type=\"image/jpeg\" href=\"http://img.test/e.jpg\"/></entry>"
        let cases: [(name: String, bytes: [UInt8], restarts: Int)] = [
            ("one channel", Self.rss(channel), 0),
            ("a second channel's items are not the feed's", Self.rss(channel + "<channel>\(Self.item("c"))</channel>"), 0),
            ("root items after the channel", Self.rss(channel + Self.item("r")), 0),
            ("root items before any channel", Self.rss(Self.item("r") + channel), 0),
            ("Atom with its author first", Array((atomHead + "<author><name>n</name></author>" + entry + "</feed>").utf8), 0),
            ("Atom with its author after an entry", Array((atomHead + entry + "<author><name>n</name></author></feed>").utf8), 1),
            // Long enough that libxml2 hands over items before it reaches the mismatched end tag.
            ("not well-formed half-way", Self.rss("<channel>" + (0..<3000).map { Self.item("\($0)") }.joined()), 1),
            ("no item where the mapping looks first", Self.rss("<channel><x>\(Self.item("deep"))</x></channel>"), 0),
            ("items none of which can be read", Self.rss("<channel><item><title>no image, no link</title></item></channel>"), 0),
        ]
        let jsonItem = #"{"id": "j", "title": "x", "image": "http://img.test/j.jpg"}"#
        let flickrItem = #"{"title": "x", "link": "https://www.flickr.com/photos/o/1/", "media": {"m": "http://img.test/f.jpg"}}"#
        let json: [(String, String)] = [
            ("JSON Feed", #"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [\#(jsonItem), \#(jsonItem)]}"#),
            ("JSON Feed, items before the version and author", #"{"items": [\#(jsonItem)], "authors": [{"name": "a"}], "version": "1.1"}"#),
            ("JSON Feed, items twice", #"{"version": "1", "items": {"no": 1}, "items": [\#(jsonItem)]}"#),
            ("JSON Feed, an item with a mistyped field", #"{"version": "1.1", "items": [{"id": "u", "tags": "x"}, \#(jsonItem)]}"#),
            ("JSON Feed, every item with mistyped fields", #"{"version": "1.1", "items": [{"id": "u", "tags": 5}, {"id": 1.5, "tags": ["x", {}]}]}"#),
            ("JSON Feed, not valid half-way", #"{"version": "1.1", "items": [\#(jsonItem), {"id": ]}"#),
            ("Flickr JSONP", #"jsonFlickrFeed({"title": "f", "link": "https://www.flickr.com/photos/", "items": [\#(flickrItem)]})"#),
            ("Flickr REST", #"{"photos": {"page": 1, "pages": 1, "perpage": 1, "total": 1, "photo": []}, "stat": "ok"}"#),
        ]
        for (name, text) in json {
            let (whole, streamed, restarted) = Self.both(Array(text.utf8))
            #expect(whole == streamed, "\(name)")
            #expect(restarted == 0, "\(name): restarted \(restarted) times")
        }
        for (name, bytes, restarts) in cases {
            let (whole, streamed, restarted) = Self.both(bytes)
            #expect(whole == streamed, "\(name)")
            #expect(restarted == restarts, "\(name): restarted \(restarted) times")
        }
    }

    @Test func pagedAPIsAreParsedWholeAndSingleDocumentsStreamed() {
        func document(_ text: String) -> FeedDocument? { FeedParser.document(Array(text.utf8), url: Self.url, contentType: nil) }
        #expect(document("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel/></rss>") != nil)
        #expect(document(#"{"version": "https://jsonfeed.org/version/1.1", "items": []}"#)?.json?.kind == .jsonFeed)
        #expect(document(#"jsonFlickrFeed({"generator": "https://www.flickr.com/", "items": []})"#)?.json?.kind == .flickrPublic)
        #expect(document(#"{"photos": {"page": 1, "pages": 3, "perpage": 1, "total": 3, "photo": []}, "stat": "ok"}"#) == nil)
        #expect(document(#"{"code": 200, "status": "Ok", "data": {"offset": 0, "limit": 20, "total": 99, "count": 0, "results": []}}"#) == nil)
        #expect(document(#"{"not": "a feed"}"#) == nil)
    }
}
