import PMCache
import PMLoading

/// The media URLs of a sync's staged feeds, read back from the index a page at a time: feed by
/// feed, each item's images in order, then the feed's own image. The same URL may come more
/// than once (in two items or two feeds); `MediaLedger` sees to it that it is done once.
struct StagedMediaSource: Sendable {
    /// Items read per page.
    static let pageItems = 256

    let index: PhotoIndex
    private var feeds: [StagedFeed]
    private var current: (feed: StagedFeed, span: ClosedRange<Int64>?, cursor: Int64)?

    init(index: PhotoIndex, feeds: [StagedFeed]) {
        self.index = index
        self.feeds = feeds.reversed()
    }

    /// The next URLs, all of one feed, and that feed's `StagedFeed.addressHome`; nil once every
    /// feed is read.
    mutating func nextPage() async throws(IndexError) -> (urls: [String], addressHome: AddressZone?)? {
        while true {
            if current == nil {
                guard let feed = feeds.popLast() else { return nil }
                let span = try await index.itemSpan(feedKey: feed.key)
                current = (feed, span, (span?.lowerBound ?? 1) - 1)
            }
            guard let (feed, span, cursor) = current else { continue }
            if let span {
                let page = try await index.stagedMediaURLs(feedKey: feed.key, span: span, after: cursor, limit: Self.pageItems)
                if let last = page.last {
                    current?.cursor = last
                    if page.urls.isEmpty { continue }
                    return (page.urls, feed.addressHome)
                }
            }
            current = nil
            if let image = feed.record.imageURL { return ([image], feed.addressHome) }
        }
    }
}
