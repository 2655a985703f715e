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
            throw FeedFetchError(description: "\(urlString): not a URL")
        }
        var previous: StoredFeed?
        if options.revalidateFeeds, let index { previous = await StoredFeed.load(url: urlString, index: index) }
        var pageURL = url
        var merged: ParsedFeed?
        var first: (etag: String?, lastModified: String?, pollHint: Double?) = (nil, nil, nil)
        var pages = 0
        while true {
            let conditions = previous.map { $0.kind.conditionalFetch.isConditional(pageIndex: pages) ? $0.conditionalHeaders : [:] }
            let (bytes, contentType, etag, lastModified, pollHint) = try await document(at: pageURL, scheme: scheme,
                                                                                        headers: conditions ?? [:])
            if bytes == nil, let previous {
                var unchanged = previous.notModified(etag: etag, lastModified: lastModified)
                unchanged.pollHint = pollHint
                return unchanged
            }
            guard let bytes else { throw FeedFetchError(description: "\(Redaction.url(pageURL)): HTTP 304 to an unconditional request") }
            if defersReading, pages == 0, let document = FeedParser.document(bytes, url: pageURL, contentType: contentType) {
                return FetchedFeed(document: document, etag: etag, lastModified: lastModified, pollHint: pollHint)
            }
            let parsed: ParsedFeed
            do {
                parsed = try FeedParser.parse(bytes, url: pageURL, contentType: contentType)
            } catch {
                throw FeedFetchError(description: "\(urlString): \(error)")
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
        guard let feed = merged else { throw FeedFetchError(description: "\(urlString): no page was read") }
        return FetchedFeed(parsed: feed.truncated(toItems: options.maxItems), etag: first.etag, lastModified: first.lastModified,
                           pollHint: first.pollHint)
    }

    /// The document's bytes, or nil bytes when a conditional request (`headers`) answered 304.
    private func document(at url: URL, scheme: String, headers: [String: String]) async throws(FeedFetchError)
        -> (bytes: [UInt8]?, contentType: String?, etag: String?, lastModified: String?, pollHint: Double?)
    {
        switch scheme {
        case "file":
            return (try readLocal(url.path), nil, nil, nil, nil)
        case "http", "https":
            let target = FeedRequestSigner(marvelKeys: options.marvelKeys).requestURL(for: url, at: Date())
            var request = HTTPRequest(url: target.absoluteString)
            request.timeout = options.timeout
            request.stallTimeout = options.stallTimeout
            request.maxBytes = options.maxFeedBytes
            request.headers = headers
            let response: HTTPResponse
            do {
                response = try await loader.fetch(request)
            } catch {
                throw FeedFetchError(description: "\(Redaction.url(url)): \(error)")
            }
            let pollHint = PollHint.seconds(headers: response.headers, now: Date())
            if response.status == 304, !headers.isEmpty { return (nil, nil, response.etag, response.lastModified, pollHint) }
            guard response.status == 200 else {
                var reason = "\(Redaction.url(url)): HTTP \(response.status) \(HTTPStatus.reason(response.status))"
                if response.status == 410 { reason += ": the feed was removed; watch polls it no more until it is synced by hand" }
                throw FeedFetchError(description: reason, gone: response.status == 410, pollHint: pollHint)
            }
            return (response.body, response.contentType, response.etag, response.lastModified, pollHint)
        default:
            throw FeedFetchError(description: "\(url.absoluteString): unsupported scheme \"\(scheme)\" (use http, https or file)")
        }
    }

    private func readLocal(_ path: String) throws(FeedFetchError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FeedFetchError(description: "\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: options.maxFeedBytes + 1) ?? Data()
            guard data.count <= options.maxFeedBytes else {
                throw FeedFetchError(description: "\(path): feed is larger than \(options.maxFeedBytes) bytes")
            }
            return [UInt8](data)
        } catch let error as FeedFetchError {
            throw error
        } catch {
            throw FeedFetchError(description: "\(path): \(error.localizedDescription)")
        }
    }
}
