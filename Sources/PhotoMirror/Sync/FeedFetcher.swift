import Foundation
import PMCache
import PMFeeds
import PMLoading

/// A feed fetched: parsed, all of its pages merged, or a single document still to read.
struct FetchedFeed: Sendable {
    enum Content: Sendable {
        case parsed(ParsedFeed)
        /// A feed of one document, which the sync reads as it stores it (`FeedFetcher.defersReading`).
        case document(FeedDocument)
    }

    var content: Content
    var etag: String?
    var lastModified: String?
    /// The server answered 304 to the stored validators: the content is the feed's stored row,
    /// without its items.
    var notModified = false
    /// Seconds the server asked to be left alone (Cache-Control, Expires, Retry-After of the
    /// first page); the document's own `<ttl>` is `parsed.timeToLive`.
    var pollHint: Double?
    /// The zone of the feed's address, which its images may reach besides public addresses
    /// (`AddressRule.home`); nil when every address is allowed.
    var addressHome: AddressZone?

    init(parsed: ParsedFeed, etag: String?, lastModified: String?, pollHint: Double? = nil) {
        self.content = .parsed(parsed)
        self.etag = etag
        self.lastModified = lastModified
        self.pollHint = pollHint
    }

    init(document: FeedDocument, etag: String?, lastModified: String?, pollHint: Double?) {
        self.content = .document(document)
        self.etag = etag
        self.lastModified = lastModified
        self.pollHint = pollHint
    }

    /// The feed, parsed (a document is read whole).
    func read() throws(FeedError) -> ParsedFeed {
        switch content {
        case .parsed(let parsed): parsed
        case .document(let document): try FeedParser.parse(document.bytes, url: document.url, contentType: document.contentType)
        }
    }
}

/// A feed that could not be read: what the user sees, naming the URL and the cause.
struct FeedFetchError: Error, Sendable, CustomStringConvertible {
    let description: String
    /// The server said 410 Gone: the feed was removed for good.
    var gone = false
    /// Seconds the server asked to be left alone before the next try (Retry-After, …).
    var pollHint: Double?
}

/// Fetches a feed URL (http, https, or a local `file://` feed), follows its paging and parses it.
struct FeedFetcher: Sendable {
    let loader: any HTTPLoading
    let options: LoadingOptions
    /// Where the feed's validators are found and, on a 304, its previous row.
    var index: PhotoIndex?
    /// A feed of one document (RSS, Atom, JSON Feed, Flickr's public feed) is handed back unread, for the sync to read as it
    /// stores its items; paged feeds are always read and merged here.
    var defersReading = false

    func fetch(_ urlString: String) async throws(FeedFetchError) -> FetchedFeed {
        guard let url = URL(string: urlString), let scheme = url.scheme?.lowercased() else {
            throw FeedFetchError(description: "\(Redaction.url(urlString)): not a URL")
        }
        var previous: StoredFeed?
        if options.revalidateFeeds, let index { previous = await StoredFeed.load(url: urlString, index: index) }
        var pageURL = url
        var merged: ParsedFeed?
        var first: (etag: String?, lastModified: String?, pollHint: Double?) = (nil, nil, nil)
        var pages = 0
        // The first page's first address is the feed's home; its other pages keep to it.
        var rule = options.feedAddressRule
        var home: AddressZone?
        while true {
            let conditions = previous.map { $0.kind.conditionalFetch.isConditional(pageIndex: pages) ? $0.conditionalHeaders : [:] }
            let (bytes, contentType, etag, lastModified, pollHint, zone) = try await document(
                at: pageURL, scheme: scheme, headers: conditions ?? [:], rule: rule)
            if rule != nil, home == nil {
                // A response to a rule reports its zone; without one (never expected) the strictest home.
                home = zone ?? .public
                rule = .home(zone ?? .public)
            }
            if bytes == nil, let previous {
                var unchanged = previous.notModified(etag: etag, lastModified: lastModified)
                unchanged.pollHint = pollHint
                unchanged.addressHome = home
                return unchanged
            }
            guard let bytes else { throw FeedFetchError(description: "\(Redaction.url(pageURL)): HTTP 304 to an unconditional request") }
            if defersReading, pages == 0, let document = FeedParser.document(bytes, url: pageURL, contentType: contentType) {
                var fetched = FetchedFeed(document: document, etag: etag, lastModified: lastModified, pollHint: pollHint)
                fetched.addressHome = home
                return fetched
            }
            let parsed: ParsedFeed
            do {
                parsed = try FeedParser.parse(bytes, url: pageURL, contentType: contentType)
            } catch {
                throw FeedFetchError(description: "\(Redaction.url(urlString)): \(error)")
            }
            pages += 1
            if var feed = merged {
                feed.items += parsed.items
                feed.invalid += parsed.invalid
                feed.paging = parsed.paging
                merged = feed
            } else {
                merged = parsed
                first = (etag, lastModified, pollHint)
            }
            guard let paging = parsed.paging,
                  let next = FeedPaging.nextPageURL(
                      after: paging, current: pageURL, pagesSoFar: pages, maxPages: paging.pageLimit(maxPages: options.maxPages),
                      itemsSoFar: merged?.items.count ?? 0, maxItems: options.maxItems)
            else { break }
            pageURL = next
        }
        guard let feed = merged else { throw FeedFetchError(description: "\(Redaction.url(urlString)): no page was read") }
        var fetched = FetchedFeed(parsed: feed.truncated(toItems: options.maxItems), etag: first.etag,
                                  lastModified: first.lastModified, pollHint: first.pollHint)
        fetched.addressHome = home
        return fetched
    }

    /// The document's bytes, or nil bytes when a conditional request (`headers`) answered 304.
    /// `zone`: the zone of the address connected to, a local file's being loopback.
    private func document(at url: URL, scheme: String, headers: [String: String], rule: AddressRule?) async throws(FeedFetchError)
        -> (bytes: [UInt8]?, contentType: String?, etag: String?, lastModified: String?, pollHint: Double?, zone: AddressZone?)
    {
        switch scheme {
        case "file":
            return (try readLocal(url.path), nil, nil, nil, nil, .loopback)
        case "http", "https":
            let target = FeedRequestSigner(marvelKeys: options.marvelKeys).requestURL(for: url, at: Date())
            var request = HTTPRequest(url: target.absoluteString)
            request.timeout = options.timeout
            request.stallTimeout = options.stallTimeout
            request.maxBytes = options.maxFeedBytes
            request.headers = headers
            request.addressRule = rule
            let response: HTTPResponse
            do {
                response = try await loader.fetch(request)
            } catch {
                throw FeedFetchError(description: "\(Redaction.url(url)): \(error)")
            }
            let pollHint = PollHint.seconds(headers: response.headers, now: Date())
            if response.status == 304, !headers.isEmpty { return (nil, nil, response.etag, response.lastModified, pollHint, response.zone) }
            guard response.status == 200 else {
                var reason = "\(Redaction.url(url)): HTTP \(response.status) \(HTTPStatus.reason(response.status))"
                if response.status == 410 { reason += ": the feed was removed; watch polls it no more until it is synced by hand" }
                throw FeedFetchError(description: reason, gone: response.status == 410, pollHint: pollHint)
            }
            return (response.body, response.contentType, response.etag, response.lastModified, pollHint, response.zone)
        default:
            throw FeedFetchError(description: "\(Redaction.url(url)): unsupported scheme \"\(scheme)\" (use http, https or file)")
        }
    }

    private func readLocal(_ path: String) throws(FeedFetchError) -> [UInt8] {
        do {
            return try LocalFeedFile.read(path, limit: options.maxFeedBytes)
        } catch {
            throw FeedFetchError(description: error.description)
        }
    }
}
