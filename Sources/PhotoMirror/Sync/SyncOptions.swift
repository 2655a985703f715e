import Foundation
import PMCache
import PMFeeds
import PMImaging
import PMLoading

/// Everything a sync can be told, one part per stage: each stage is handed only its own part.
/// Defaults are what `photomirror sync` uses without options. Publishing has no part: pages and
/// manifests follow from the index and the gallery size stored in it, so that prune and
/// `verify --repair` republish exactly what a sync would.
public struct SyncOptions: Sendable {
    public var loading = LoadingOptions()
    public var imaging = ImagingOptions()
    public var cache = CacheOptions()

    public init() {}
}

/// Fetching feeds and images: what to ask for, how hard, and how politely.
public struct LoadingOptions: Sendable {
    /// Transfers in flight at once. Sixteen saturates loopback and typical CDNs; `perHost`
    /// keeps a single host from getting all of them.
    public var jobs = 16
    /// Transfers in flight to one host (origin) at most, within `jobs`: six, as browsers and
    /// SDWebImage keep.
    public var perHost = HostLimits().perHost
    /// Requests a second to one host at most; nil is no limit but `perHost`.
    public var rate: Double?
    /// Per-request total timeout in seconds.
    public var timeout: Double = 30
    /// Abort a transfer that moves less than one byte per second for this long.
    public var stallTimeout: Double = 15
    /// Largest image body accepted (checked against Content-Length, then while streaming).
    public var maxBytes = 50_000_000
    /// Largest feed document accepted (`--max-feed-bytes`): real paged APIs answer pages of tens of MB.
    public var maxFeedBytes = 64_000_000
    /// Pages to follow for paged APIs (Flickr REST) and the item cap for offset-paged ones (Marvel).
    public var maxPages = 1
    public var maxItems = 100
    /// The items taken of each feed (`--max-items`, `--since`); every item by default.
    public var selection = ItemSelection()
    /// Images smaller than this many bytes are skipped, not stored (`--min-bytes`: icons, spacers).
    public var minBytes: Int?
    /// Images whose declared (upright) width or height is under this are skipped, not stored
    /// (`--min-pixels`: icons, spacers).
    public var minPixels: PixelSize?
    /// Images mirrored per item at most (an item's `<img>`s, enclosures, media:content…), in the feed's order.
    public var maxImagesPerItem = 20
    /// Retries of connection failures, timeouts, 5xx, 408 and 429 (see `RetryPolicy`).
    public var retry = RetryPolicy()
    /// Marvel API keys; when set, requests to `/v1/public/…` are signed.
    public var marvelKeys: MarvelKeys?
    /// Ask for each feed with its stored validators (If-None-Match / If-Modified-Since); a 304
    /// leaves the feed's manifest and pages as they are. On by default: feeds change, and an
    /// unchanged one then costs a request with no body. Off fetches every feed whole.
    public var revalidateFeeds = true
    /// Ask the server again about every cached media URL, with its stored validators (`sync
    /// --revalidate`). Off by default: image URLs are immutable.
    public var revalidateMedia = false
    /// Download again the images whose original (or whole image) a prune evicted while an item
    /// still lists them (`sync --refetch-evicted`). Off by default: under a size limit the
    /// gallery needs only their thumbnails, and fetching them back would only be evicted again.
    public var refetchEvicted = false
    /// The `User-Agent` of every request (`--user-agent`: an operator's contact URL, say); nil is
    /// `CurlLoader.defaultUserAgent`.
    public var userAgent: String?
    /// `--allow-private-addresses`: feeds may lead anywhere. Off, a feed's requests keep to
    /// public addresses and those of the feed's own zone (`AddressRule`).
    public var allowPrivateAddresses = false

    public init() {}

    /// The rule for a feed's first request: nil when every address is allowed.
    var feedAddressRule: AddressRule? { allowPrivateAddresses ? nil : .learnsHome }

    /// The per-host limits of a run; a `Retry-After` is waited out as long as a retry would wait.
    public var hostLimits: HostLimits {
        HostLimits(perHost: perHost, rate: rate, maxPause: retry.maxRetryAfter)
    }
}

/// Decoding and thumbnailing.
public struct ImagingOptions: Sendable {
    /// Thumbnail sizes to make for every image; the first is the gallery's.
    public var sizes: [ThumbnailSize] = [ThumbnailSize(width: 40, height: 40)]
    /// Largest decoded image, in pixels, accepted before any pixel memory is allocated.
    public var maxPixels = 100_000_000
    /// Threads for decoding, encoding and file writes: one per core.
    public var codecThreads = ProcessInfo.processInfo.activeProcessorCount

    public init() {}
}

/// The cache a sync writes: how long to wait for it, and how large it may grow.
public struct CacheOptions: Sendable {
    /// Seconds to wait for another writer's lock on the cache.
    public var lockWait: Double = 5
    /// Bound on the cache's disk use, enforced by a prune after the sync (`sync --max`); nil
    /// takes the cache's `max_size` setting.
    public var maxSize: Int?
    /// Seconds an unreferenced object of a shared storage is kept by that prune (`--garbage-grace`).
    public var garbageGrace = SharedStorage.defaultGrace

    public init() {}
}

/// The CLI builds the keys but imports only PhotoMirror.
public typealias MarvelKeys = PMFeeds.MarvelKeys

extension ImagingOptions {
    /// `--scales 1,2,3`: the sizes plus the first (the gallery's 1x) at each scale, for
    /// high-density screens — 40x40 at 1,2,3 adds 80x80 and 120x120, right after the base.
    /// Duplicates dropped; nil when a scale is below 1 or a scaled side exceeds `ThumbnailSize.maxSide`.
    public static func sizes(_ sizes: [ThumbnailSize], scaledBy scales: [Int]) -> [ThumbnailSize]? {
        guard let base = sizes.first else { return sizes }
        var result = [base]
        for scale in scales {
            let (width, height) = (base.width * scale, base.height * scale)
            guard scale >= 1, width <= ThumbnailSize.maxSide, height <= ThumbnailSize.maxSide else { return nil }
            let scaled = ThumbnailSize(width: width, height: height)
            if !result.contains(scaled) { result.append(scaled) }
        }
        for size in sizes.dropFirst() where !result.contains(size) { result.append(size) }
        return result
    }
}
