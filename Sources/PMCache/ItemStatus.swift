/// The `items.status` values. A sync writes the first three; prune and `verify --repair` move
/// items between `ok` and the evicted ones as files come and go.
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

    /// Statuses that follow from which files of the item's image the index still holds.
    static let derivedFromFiles = [ok, evictedOriginal, evicted]
}
