extension ParsedFeed {
    /// `self`, or a `FeedError` when the document listed items and not one of them could be
    /// mapped: that is a feed we misread, not an empty one, and must not pass as a sync with
    /// nothing new. Zero listed items is a valid empty feed. `listing` says what was listed
    /// ("RSS document has 12 <item> elements"); the first item's reason follows it.
    func requiringReadableItems(listed count: Int, _ listing: @autoclosure () -> String) throws(FeedError) -> ParsedFeed {
        guard count > 0, items.isEmpty else { return self }
        let reason = invalid.first.map { ": " + $0.reason } ?? ""
        throw FeedError("\(listing()) but none could be read\(reason)")
    }
}
