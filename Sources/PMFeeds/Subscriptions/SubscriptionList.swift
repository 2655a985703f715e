import Foundation

/// One feed named by a subscription list.
public struct Subscription: Sendable, Equatable {
    public var url: String
    /// OPML's `text` or `title`: a fallback for feeds that name themselves nothing.
    public var title: String?

    public init(url: String, title: String? = nil) {
        self.url = url
        self.title = title
    }
}

/// Why a subscription list was refused, and where: a line of a text list, an OPML element's path,
/// or the whole document (libxml2's line and column are then in `message`).
public struct SubscriptionListError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Location: Sendable, Equatable {
        case line(Int)
        case element(String)
        case document
    }

    public var location: Location
    public var message: String

    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String {
        switch location {
        case .line(let number): "line \(number): \(message)"
        case .element(let path): "\(path): \(message)"
        case .document: message
        }
    }
}

/// `sync --feeds FILE`: OPML 1.0/2.0 or a text list of URLs, told apart by the first character.
public enum SubscriptionList {
    /// The list's feeds in order, each URL once (the first occurrence kept). `fileURL` is where the
    /// list came from: OPML's relative `xmlUrl`s resolve against it, and a list from an http(s)
    /// URL may name no `file://` feed.
    public static func parse(_ bytes: [UInt8], fileURL: URL) throws(SubscriptionListError) -> [Subscription] {
        let found = XMLCharset.startsWithMarkup(bytes)
            ? try OPMLSubscriptions.read(bytes, fileURL: fileURL)
            : try TextSubscriptions.read(bytes)
        var seen: Set<String> = []
        let subscriptions = found.filter { seen.insert($0.url).inserted }
        // A list from a server is a stranger's: it may not make the mirror read (and publish) local files.
        if ["http", "https"].contains(fileURL.scheme?.lowercased() ?? ""),
           let local = subscriptions.first(where: { URL(string: $0.url)?.scheme?.lowercased() == "file" }) {
            throw SubscriptionListError(.document, "a list fetched over \(fileURL.scheme ?? "http") may not name a file:// "
                + "feed (\(local.url))")
        }
        return subscriptions
    }

    /// The schemes `sync` fetches a feed over; anything else would only fail later, further from
    /// the line that named it.
    static func isFeedURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        switch scheme {
        case "http", "https": return !(url.host ?? "").isEmpty
        case "file": return url.path.hasPrefix("/")
        default: return false
        }
    }
}
