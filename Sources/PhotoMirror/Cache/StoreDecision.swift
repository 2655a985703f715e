/// Which store a command uses, from what the cache folder tells about where its files are and
/// the `--store` it was given. Pure: `StoreSetting` gathers the facts and acts on the answer.
///
/// The index describes objects in one place. A command that looked elsewhere would find every
/// file "missing", and a repair would then drop the rows of an intact cache; so a store that
/// differs from the cache's is refused, and only `sync --move-store` (or an edit of config.json)
/// changes it.
public enum StoreDecision: Equatable, Sendable {
    /// Use this store (nil: the cache folder); `record` when config.json should remember it.
    case use(String?, record: Bool)
    /// Copy the published tree from `from` (nil: the cache folder) to `to`, then record `to`.
    case move(from: String?, to: String)
    /// A usage error (exit 2), with what to do instead.
    case refuse(String)

    /// What the cache folder says about where the files its index describes are.
    public enum Recorded: Equatable, Sendable {
        /// No store recorded, and nothing the index names is anywhere yet: any store may start.
        case nothing
        /// No store recorded, and the folder holds the cache's content folders.
        case folder
        /// config.json's `store`.
        case store(String)
        /// No store recorded, the index names `indexed` originals and thumbnails, and the folder
        /// holds none of the published tree: a cache synced with `--store` before the store was
        /// recorded (or whose config.json lost it). Its files are in some bucket, not here.
        case elsewhere(indexed: Int)
    }

    /// `given` is `--store`, `move` is `--move-store`, `records` whether the command is a sync
    /// (sync, watch: the commands that put the objects the index will describe). `cache` and
    /// `config` name the folder and its config.json in messages.
    public static func decide(recorded: Recorded, given: String?, move: Bool, records: Bool,
                              cache: String, config: String) -> StoreDecision {
        guard let given else {
            if move { return .refuse("--move-store needs --store s3://BUCKET[/PREFIX], the store to move the cache to") }
            switch recorded {
            case .nothing, .folder: return .use(nil, record: false)
            case .store(let store): return .use(store, record: false)
            case .elsewhere(let indexed):
                return .refuse("\(cache): its index names \(indexed) originals and thumbnails, but the folder holds none "
                    + "of the cache's files and \(config) records no store: they were put in a bucket. Give that "
                    + "bucket as --store s3://BUCKET[/PREFIX] (a sync then records it); no command judges them "
                    + "from this folder")
            }
        }
        let wanted = canonical(given)
        switch recorded {
        case .nothing, .elsewhere:
            return .use(wanted, record: records)
        case .store(let store) where canonical(store) == wanted:
            return .use(wanted, record: false)
        case .store(let store):
            if move && records { return .move(from: canonical(store), to: wanted) }
            return .refuse("--store \(wanted) differs from the store this cache records, \(canonical(store)) (\(config)): "
                + "its index describes the objects there. Leave out --store to use \(canonical(store)); to move the "
                + "cache, `photomirror sync --move-store --store \(wanted)`")
        case .folder:
            if move && records { return .move(from: nil, to: wanted) }
            return .refuse("--store \(wanted) is not where this cache's files are: they are in its folder, \(cache), "
                + "and its index describes them there. Leave out --store to use the folder; to move the cache, "
                + "`photomirror sync --move-store --store \(wanted)`")
        }
    }

    /// `s3://bucket/prefix` without empty segments, so `s3://b/p/` and `s3://b//p` are one store.
    public static func canonical(_ text: String) -> String {
        guard text.hasPrefix("s3://") else { return text }
        let segments = text.dropFirst("s3://".count).split(separator: "/")
        return "s3://" + segments.joined(separator: "/")
    }
}
