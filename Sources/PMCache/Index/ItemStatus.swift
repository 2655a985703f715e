/// The status of an item (and of each of its images). A sync writes `ok`, `failed`, `skipped` or
/// `no-image`; the evicted ones are never stored: reading an item derives them from the files
/// the index still holds for its image (`PhotoIndex.derivedStatus`), so prune and
/// `verify --repair` drop file rows without rewriting a single item row.
public enum ItemStatus: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The original and thumbnails are in the cache.
    case ok
    case failed
    /// The feed itself gives no image for the item.
    case noImage = "no-image"
    /// The image was fetched and left out on purpose (`sync --min-bytes`, `--min-pixels`: an icon, a spacer).
    /// Not a failure; the next sync that lists the item asks for it again.
    case skipped
    /// The original was evicted; the thumbnails remain. The next sync that lists the item fetches it again.
    case evictedOriginal = "evicted-original"
    /// The original and the thumbnails were evicted. The next sync that lists the item fetches it again.
    case evicted

    public var description: String { rawValue }

    /// A stored status this version does not know (a newer writer's) reads as `failed`: the
    /// item is shown as a labelled box and the next sync lists it again.
    public init(stored: String?) {
        self = stored.flatMap(ItemStatus.init(rawValue:)) ?? .failed
    }

    /// Statuses that follow from which files of the item's image the index still holds. Caches
    /// written before statuses were derived may store the evicted ones; they read the same way.
    static let derivedFromFiles: [ItemStatus] = [.ok, .evictedOriginal, .evicted]
}
