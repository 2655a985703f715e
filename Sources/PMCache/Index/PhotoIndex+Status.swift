/// Item statuses as the files say, derived in the query that reads the items.
extension PhotoIndex {
    /// SQL for the status of the `items` row in scope: for an image item (`ok` or an evicted
    /// status stored), no thumbnail left is `evicted`, thumbnails without the original is
    /// `evicted-original`, both is `ok`; any other status is the sync's answer, as stored.
    /// Two primary-key probes per item: cheaper than rewriting ~85 000 rows on every prune.
    static let derivedStatus = derivedStatus(of: "items")

    /// The same for the rows of `table` (`items` or `item_media`), which both have `sha256` and `status`.
    static func derivedStatus(of table: String) -> String {
        """
        CASE
            WHEN \(table).sha256 IS NULL OR \(table).status NOT IN \(derivedStatuses) THEN \(table).status
            WHEN NOT EXISTS (SELECT 1 FROM thumbnails t WHERE t.original_sha256 = \(table).sha256) THEN '\(ItemStatus.evicted)'
            WHEN NOT EXISTS (SELECT 1 FROM originals o WHERE o.sha256 = \(table).sha256) THEN '\(ItemStatus.evictedOriginal)'
            ELSE '\(ItemStatus.ok)'
        END
        """
    }

    static var derivedStatuses: String {
        "(" + ItemStatus.derivedFromFiles.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }
}
