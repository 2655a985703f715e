/// How much memory the index may keep. SQLite's default page cache (2 MB) fills with the rows a
/// long sync inserts and stays resident to the end: the peak would grow with the feed.
extension PhotoIndex {
    /// Caps SQLite's page cache for this connection; pages beyond it are read back from the
    /// file (the OS page cache), which costs microseconds, not memory of ours.
    public func boundPageCache(kibibytes: Int) {
        try? connection.execute("PRAGMA cache_size = -\(max(64, kibibytes))")
    }
}
