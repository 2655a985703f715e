// libFuzzer harness for PMFeeds: FeedParser.parse over arbitrary bytes (JSON, JSONP, RSS, Atom,
// JSON Feed detection and mapping, charsets, XML recovery, HTML entities, dates, URL resolution),
// then paging on what it returns, and FeedParser.stream (the sync's reading) checked against it;
// then the same bytes as the HTML of an Atom entry, so every input also goes through libxml2's
// HTML parser and the <img>/srcset extraction. The bytes also go through the JSON reader that
// skips named members (verify's reading of manifests and JSON Feeds), checked against the full read.
// Built by Scripts/fuzz with `swiftc -sanitize=fuzzer,address` against PMFeeds compiled the same way.
import Foundation
import PMFeeds

private let feedURL = URL(string: "https://example.org/feeds/photos?format=json&page=1")!

/// The HTTP header each input is served with, picked by its length so that a seed keeps its
/// meaning: none, a neutral type, and charsets that beat or contradict the document's own.
private let contentTypes: [String?] = [
    nil, "application/octet-stream", "application/rss+xml; charset=ISO-8859-1", "text/xml; charset=utf-16",
    "application/atom+xml; charset=\"koi8-r\"", "application/xml; charset=no-such-charset",
]

private let htmlPrefix = Array("""
    <feed xmlns="http://www.w3.org/2005/Atom"><title>f</title><entry><id>e</id>\
    <link href="https://example.org/posts/1/"/><content type="html"><![CDATA[
    """.utf8)
private let htmlSuffix = Array("]]></content></entry></feed>".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    check(bytes, contentType: contentTypes[size % contentTypes.count])
    checkSkipping(bytes)
    // CDATA ends at the first "]]>": that sequence is broken up, everything else goes in as is.
    var html = htmlPrefix
    html.reserveCapacity(htmlPrefix.count + bytes.count + htmlSuffix.count)
    for (index, byte) in bytes.enumerated() {
        html.append(byte)
        if byte == UInt8(ascii: "]"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "]"),
           bytes[index + 2] == UInt8(ascii: ">") { html.append(0x20) }
    }
    html += htmlSuffix
    check(html, contentType: nil)
    return 0
}

private func check(_ bytes: [UInt8], contentType: String?) {
    let feed: ParsedFeed
    do {
        feed = try FeedParser.parse(bytes, url: feedURL, contentType: contentType)
    } catch {
        // A whole-feed failure must say why.
        precondition(!error.message.isEmpty, "empty FeedError message")
        return
    }
    for warning in feed.warnings { precondition(!warning.isEmpty, "empty warning") }
    // Contracts the rest of the app relies on: ids are unique and non-empty within one feed.
    var ids = Set<String>()
    for item in feed.items {
        precondition(!item.id.isEmpty, "empty item id")
        precondition(ids.insert(item.id).inserted, "duplicate item id \(item.id)")
        precondition(item.mediaURL != nil || item.noImageReason != nil, "item without image or reason")
        precondition(Set(item.media.map(\.url)).count == item.media.count, "duplicate media URL in \(item.id)")
        // An API's own image field (Flickr, Marvel) is the API's answer even when broken: the
        // download then fails with its reason. Images found in markup must be fetchable.
        for media in item.media where media.source != .api {
            let scheme = media.url.prefix { $0 != ":" }.lowercased()
            precondition(scheme == "http" || scheme == "https", "unfetchable media URL \(media.url)")
        }
    }
    for invalid in feed.invalid { precondition(!invalid.reason.isEmpty, "empty invalid-item reason") }
    checkStream(bytes, contentType: contentType, parsed: feed)
    if let paging = feed.paging {
        _ = FeedPaging.nextPageURL(after: paging, current: feedURL, pagesSoFar: 1, maxPages: 10,
                                   itemsSoFar: feed.items.count, maxItems: 1000)
    }
}

/// The sync's reading of the same bytes (`FeedParser.stream`, item by item) must not crash, and
/// must hand over the items `parse` returns: as many, with the same media, in the same order.
private func checkStream(_ bytes: [UInt8], contentType: String?, parsed: ParsedFeed) {
    guard let document = FeedParser.document(bytes, url: feedURL, contentType: contentType) else { return }
    var items: [FeedItem] = []
    do {
        _ = try FeedParser.stream(document, restart: { items.removeAll() }, item: { items.append($0) })
    } catch {
        precondition(!error.localizedDescription.isEmpty, "empty stream error")
        return
    }
    precondition(items.map(\.mediaURL) == parsed.items.map(\.mediaURL), "streamed items differ from parsed ones")
}

/// Keys that feeds and photomirror's own files use, skipped wherever they appear.
private let skippedKeys: Set<String> = ["title", "description", "tags", "items", "media", "link", "a"]

/// `JSONValue.parse(_:skipping:)` must accept exactly what the full read accepts, and give its
/// value without the skipped members.
private func checkSkipping(_ bytes: [UInt8]) {
    let full = JSONValue.parse(bytes), skipping = JSONValue.parse(bytes, skipping: skippedKeys)
    precondition((full == nil) == (skipping == nil), "the skipping read and the full read disagree on validity")
    if let full, let skipping { precondition(agrees(skipping, withoutSkipped: full), "the skipping read kept other members") }
}

private func agrees(_ skipping: JSONValue, withoutSkipped full: JSONValue) -> Bool {
    switch (skipping, full) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { agrees($0, withoutSkipped: $1) }
    case (.object(let a), .object(let b)):
        let kept = b.members.filter { !skippedKeys.contains($0.key) }
        return a.members.count == kept.count
            && zip(a.members, kept).allSatisfy { $0.key == $1.key && agrees($0.value, withoutSkipped: $1.value) }
    default: return false
    }
}
