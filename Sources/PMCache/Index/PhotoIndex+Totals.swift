/// Counts and sums over the index for `photomirror stats`: aggregate queries only, so they stay
/// fast on a cache of 100 000 images.
extension PhotoIndex {
    public struct Totals: Sendable, Equatable {
        public var feeds = 0
        public var items = 0
        public var itemsByStatus: [String: Int] = [:]
        public var originals = 0
        public var originalBytes = 0
        public var thumbnails = 0
        public var thumbnailBytes = 0
        public var mediaURLs = 0
        /// Oldest and newest `last_access` over originals and thumbnails; nil when there are none.
        public var oldestAccess: Double?
        public var newestAccess: Double?
    }

    public func totals() throws(IndexError) -> Totals {
        var totals = Totals()
        func scalar(_ sql: String) throws(IndexError) -> Statement {
            let query = try connection.statement(sql)
            _ = try query.step()
            return query
        }
        totals.feeds = try scalar("SELECT count(*) FROM feeds").int(0)
        totals.mediaURLs = try scalar("SELECT count(*) FROM resources").int(0)
        let originals = try scalar("SELECT count(*), total(bytes), min(last_access), max(last_access) FROM originals")
        totals.originals = originals.int(0)
        totals.originalBytes = originals.int(1)
        var oldest = originals.optionalDouble(2), newest = originals.optionalDouble(3)
        let thumbnails = try scalar("SELECT count(*), total(bytes), min(last_access), max(last_access) FROM thumbnails")
        totals.thumbnails = thumbnails.int(0)
        totals.thumbnailBytes = thumbnails.int(1)
        if let low = thumbnails.optionalDouble(2) { oldest = min(oldest ?? low, low) }
        if let high = thumbnails.optionalDouble(3) { newest = max(newest ?? high, high) }
        (totals.oldestAccess, totals.newestAccess) = (oldest, newest)
        let statuses = try connection.statement(
            "SELECT status, count(*) FROM (SELECT \(Self.derivedStatus) AS status FROM items) GROUP BY status")
        while try statuses.step() {
            let count = statuses.int(1)
            totals.itemsByStatus[statuses.text(0) ?? "", default: 0] += count
            totals.items += count
        }
        return totals
    }
}
