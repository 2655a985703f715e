/// What `verify` found. Damage means the cache lies (an indexed file missing or wrong, a manifest
/// or gallery page pointing at nothing); garbage is harmless leftovers (files no row names, a
/// killed writer's temp files) that the next prune or `verify --repair` deletes.
public struct VerifyReport: Sendable {
    public var checkedFiles = 0
    public var checkedManifests = 0
    public var checkedPages = 0
    public var damage: [String] = []
    public var garbage: [String] = []
    /// The same findings as data, for `verify --repair`.
    var findings = Findings()

    public var isHealthy: Bool { damage.isEmpty }
}

/// What a repair acts on.
struct Findings: Sendable {
    /// Images whose original's file is missing or wrong.
    var originals: [String] = []
    /// Thumbnails (image, size) whose file is missing or wrong.
    var thumbnails: [(sha256: String, size: String)] = []
    /// The paths of those originals and thumbnails: what to delete once their rows are dropped.
    var damagedFiles: [String] = []
    /// A manifest or gallery page is missing, unreadable or links to a missing file.
    var pagesDamaged = false
    /// Paths of temp files and orphans.
    var garbage: [String] = []

    var isEmpty: Bool { originals.isEmpty && thumbnails.isEmpty && !pagesDamaged && garbage.isEmpty }
}
