/// How much memory the index may keep. SQLite's default page cache (2 MB) fills with the rows a
/// long sync inserts and stays resident to the end: the peak would grow with the feed.
extension PhotoIndex {
    /// Caps SQLite's page cache for this connection; pages beyond it are read back from the
    /// file (the OS page cache), which costs microseconds, not memory of ours.
    public func boundPageCache(kibibytes: Int) {
        boundPageCache(.fixed(kibibytes: kibibytes))
    }

    /// Sizes the page cache by `bound` now and again after each batch of media writes
    /// (`apply`), as the index grows under a sync.
    public func boundPageCache(_ bound: PageCacheBound) {
        pageCache = PageCacheFit(bound: bound)
        refitPageCache()
    }

    /// Applies the bound to the index's present size, when that moves the cache by a step:
    /// the page count is read from the open pager, so this costs no I/O.
    func refitPageCache() {
        guard var fit = pageCache else { return }
        let kibibytes = fit.bound.kibibytes(indexBytes: (try? indexBytes()) ?? 0)
        guard fit.shouldApply(kibibytes) else { return }
        try? connection.execute("PRAGMA cache_size = -\(max(64, kibibytes))")
        fit.applied = kibibytes
        pageCache = fit
    }

    private func indexBytes() throws(IndexError) -> Int {
        let query = try connection.statement("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
        var bytes = 0
        while try query.step() { bytes = query.int(0) }
        return bytes
    }
}

/// The bound an index keeps its page cache to and the size it last applied.
struct PageCacheFit {
    /// Resizing by less is not worth a pragma per batch.
    static let stepKiB = 256
    let bound: PageCacheBound
    var applied: Int?

    /// Whether to resize to `kibibytes`: the first time, by a step, or to reach a limit.
    func shouldApply(_ kibibytes: Int) -> Bool {
        guard let applied else { return true }
        return applied != kibibytes
            && (abs(applied - kibibytes) >= Self.stepKiB || kibibytes == bound.ceilingKiB || kibibytes == bound.floorKiB)
    }
}
