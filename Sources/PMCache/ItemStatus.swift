/// The `items.status` values. A sync writes `ok`, `failed` or `no-image`; the evicted ones are
/// never stored: reading an item derives them from the files the index still holds for its
/// image (`PhotoIndex.derivedStatus`), so prune and `verify --repair` drop file rows without
/// rewriting a single item row.
public enum ItemStatus {
    /// The original and thumbnails are in the cache.
    public static let ok = "ok"
    public static let failed = "failed"
    /// The feed itself gives no image for the item.
    public static let noImage = "no-image"
    /// The original was evicted; the thumbnails remain. The next sync that lists the item fetches it again.
    public static let evictedOriginal = "evicted-original"
    /// The original and the thumbnails were evicted. The next sync that lists the item fetches it again.
    public static let evicted = "evicted"

    /// Statuses that follow from which files of the item's image the index still holds. Caches
    /// written before statuses were derived may store the evicted ones; they read the same way.
    static let derivedFromFiles = [ok, evictedOriginal, evicted]
}
