/// What `verify` found. Damage means the cache lies (an indexed file missing or wrong, a manifest,
/// JSON Feed or gallery page missing or pointing at nothing); garbage is harmless leftovers
/// (files no row names, a killed writer's temp files) that the next prune or `verify --repair`
/// deletes.
public struct VerifyReport: Sendable {
    public var checkedFiles = 0
    public var checkedManifests = 0
    public var checkedJSONFeeds = 0
    public var checkedPages = 0
    public var damage: [String] = []
    public var garbage: [String] = []
    /// Files derived from the index that are missing or out of date without lying about the
    /// cache (a feed.json a killed writer had not rewritten yet): the next sync of the feed or
    /// `verify --repair` rewrites them.
    public var stale: [String] = []
    /// The same findings as data, for `verify --repair`.
    var findings = Findings()
    /// The index is damaged or lost (the first damage line says which): nothing else was checked,
    /// and `verify --repair` rebuilds it.
    public private(set) var indexNeedsRebuild = false

    public var isHealthy: Bool { damage.isEmpty }

    public init() {}

    /// What `verify` reports of an index it cannot use: that line alone.
    init(indexDamage line: String) {
        damage = [line]
        indexNeedsRebuild = true
    }
}

/// What a repair acts on.
struct Findings: Sendable {
    /// Images whose original's file is missing or wrong.
    var originals: [String] = []
    /// Thumbnails (image, size) whose file is missing or wrong.
    var thumbnails: [(sha256: String, size: String)] = []
    /// The paths of those originals and thumbnails: what to delete once their rows are dropped.
    var damagedFiles: [String] = []
    /// A manifest, JSON Feed or gallery page is missing, unreadable, stale or links to a missing file.
    var pagesDamaged = false
    /// Paths of temp files and orphans.
    var garbage: [String] = []
    /// A feed's JSON Feed is missing or out of date (`VerifyReport.stale`).
    var documentsStale = false

    var isEmpty: Bool { originals.isEmpty && thumbnails.isEmpty && !pagesDamaged && garbage.isEmpty && !documentsStale }
}
