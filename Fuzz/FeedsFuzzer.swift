// libFuzzer harness for PMFeeds: FeedParser.parse over arbitrary bytes (JSON, JSONP, RSS, Atom,
// JSON Feed detection and mapping, dates, URL resolution), then paging on what it returns.
// Built by Scripts/fuzz with `swiftc -sanitize=fuzzer,address` against PMFeeds compiled the same way.
import Foundation
import PMFeeds

private let feedURL = URL(string: "https://example.org/feeds/photos?format=json&page=1")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let feed: ParsedFeed
    do {
        feed = try FeedParser.parse(bytes, url: feedURL, contentType: "application/octet-stream")
    } catch {
        // A whole-feed failure must say why.
        precondition(!error.message.isEmpty, "empty FeedError message")
        return 0
    }
    // Contracts the rest of the app relies on: ids are unique and non-empty within one feed.
    var ids = Set<String>()
    for item in feed.items {
        precondition(!item.id.isEmpty, "empty item id")
        precondition(ids.insert(item.id).inserted, "duplicate item id \(item.id)")
        precondition(item.mediaURL != nil || item.noImageReason != nil, "item without image or reason")
    }
    for invalid in feed.invalid { precondition(!invalid.reason.isEmpty, "empty invalid-item reason") }
    if let paging = feed.paging {
        _ = FeedPaging.nextPageURL(after: paging, current: feedURL, pagesSoFar: 1, maxPages: 10,
                                   itemsSoFar: feed.items.count, maxItems: 1000)
    }
    return 0
}
