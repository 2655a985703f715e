/// What became of one media URL in a sync.
enum MediaOutcome: Sendable {
    /// The thumbnails exist; `downloaded` says whether this sync fetched the bytes, `bytes` how many.
    case stored(sha256: String, downloaded: Bool, bytes: Int)
    case failed(reason: String)
    /// Fetched and left out on purpose (`--min-bytes`, `--min-pixels`), with why: not a failure.
    case skipped(reason: String)
    /// The cache can't be written (disk full, read-only, permission): the whole sync must stop.
    case aborted(reason: String)
}
