import Foundation

/// Entry point: bytes in, models out. No network, no disk.
public enum FeedParser {
    /// Detects the kind from `bytes` and maps it. `url` resolves relative links and names the
    /// feed in titles; `contentType` gives an XML document's charset (`charset=`, which beats the XML
    /// declaration) and enriches the "unrecognized feed" message. What had to be repaired to read
    /// an XML document (recovered markup, a guessed charset) is in `ParsedFeed.warnings`.
    /// Throws for input that is no supported feed and for API error envelopes (Flickr `stat: fail`,
    /// Marvel error codes); a single bad item lands in `ParsedFeed.invalid` instead.
    public static func parse(_ bytes: [UInt8], url: URL, contentType: String? = nil) throws(FeedError) -> ParsedFeed {
        let (detected, warnings) = try FeedDetector.detect(bytes, url: url, contentType: contentType)
        var feed = try map(detected, url: url)
        feed.warnings = warnings + feed.warnings
        if let image = feed.image, !ItemMedia.isFetchable(image) { feed.image = nil }
        return feed
    }

    private static func map(_ detected: FeedDetector.Detected, url: URL) throws(FeedError) -> ParsedFeed {
        switch detected {
        case .flickrPublic(let root): FlickrPublicFeed.parse(root)
        case .flickrSearch(let root): try FlickrSearchFeed.parse(root, url: url)
        case .marvel(let root): try MarvelFeed.parse(root)
        case .jsonFeed(let root): try JSONFeed.read(root, url: url)
        case .rss(let root): try RSSFeed.read(root)
        case .atom(let root): try AtomFeed.read(root)
        }
    }
}
