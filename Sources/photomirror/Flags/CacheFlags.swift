/// Bounds on the cache: `sync --max`, prune's limits, verify's repair.
extension Flag {
    static let syncMax = Flag(
        name: "max", placeholder: "SIZE", kind: .byteSize, summary: "prune to 80% of SIZE when the cache grew past it",
        help: "whenever the cache uses more than SIZE on disk, while the sync stores (sparing what it stored or its "
            + "feeds list) and after it, prune it to 80% of SIZE (so the next syncs don't prune at once); SIZE as in "
            + "`photomirror help prune`. Default: max_size in <cache>/config.json")
    static let pruneMax = Flag(
        name: "max", placeholder: "SIZE", kind: .byteSize, summary: "prune to 80% of SIZE if the cache is over it",
        help: "the limit: a cache over it is pruned to 80% of it, as `sync --max` does; default: max_size in "
            + "<cache>/config.json")
    static let maxAge = Flag(
        name: "max-age", placeholder: "DURATION", kind: .duration, summary: "expire images not listed by any sync for this long",
        help: "expire images not listed by any sync for this long")
    static let garbageGrace = Flag(
        name: "garbage-grace", placeholder: "DURATION", kind: .duration,
        summary: "in a shared store, keep unreferenced objects this young (default 24h)",
        help: "in an object store other writers may share, delete an object no index row names only once its "
            + "Last-Modified is this long ago, and only while no other writer's heartbeat is live (it may be about to "
            + "publish the manifest naming it); default 24h. A cache folder's writers take its lock, so there "
            + "garbage goes at once")
    static let syncDryRun = Flag(
        name: "dry-run", short: "n", kind: .toggle, summary: "fetch the feeds and say what a sync would do; write nothing",
        help: "fetch the feeds and say what a sync would download, store and evict, writing nothing: the cache is left "
            + "byte for byte as it was (not even created), no lock is taken and no setting recorded. The index is read "
            + "as a snapshot; the eviction is a prune of the cache as it stands, as the downloads' sizes are not known")
    static let dryRun = Flag(
        name: "dry-run", short: "n", kind: .toggle, summary: "print what would be evicted; change nothing",
        help: "print what would be evicted; change nothing, take no lock")
    static let pruneQuiet = Flag(
        name: "quiet", short: "q", kind: .toggle, summary: "print nothing unless the limit cannot be reached",
        help: "print nothing unless the limit cannot be reached")
    static let repair = Flag(
        name: "repair", kind: .toggle, summary: "fix what was found, under the writers' lock",
        help: "fix what was found, under the writers' lock: a damaged or missing index is rebuilt from the manifests "
            + "and the cache's files (the damaged one is kept as index.sqlite.damaged-<time> until the next successful "
            + "repair); then drop the rows of missing or wrong files (their items become evicted-original or evicted, "
            + "and the next sync fetches them again), rewrite manifests, JSON Feeds and the gallery, then delete wrong "
            + "files, orphans and temp files. Exit 0 when the cache then verifies.")
    static let deep = Flag(
        name: "deep", kind: .toggle, summary: "check the index with SQLite's full integrity_check",
        help: "check the index with SQLite's full integrity_check (every index against its table too) instead of its "
            + "quick_check, and with --store fetch and hash every object (else its listed size is checked); slower on a "
            + "large cache")
    static let repairWait = Flag(
        name: "wait", placeholder: "SECONDS", kind: .secondsOrZero, summary: "with --repair: how long to wait for the lock",
        help: "with --repair: how long to wait for another writer's lock (default 5)")
    static let verifyQuiet = Flag(
        name: "quiet", short: "q", kind: .toggle, summary: "do not list garbage and stale files",
        help: "do not list garbage and stale files")
}
