import PMLoading
import PhotoMirror

/// How sync, watch and feed fetch: what to ask for, how hard, and how politely.
extension Flag {
    private static let defaults = LoadingOptions()

    static let feeds = Flag(
        name: "feeds", placeholder: "FILE", kind: .file, repeatable: true, summary: "also sync the feeds of a subscription list",
        help: "also sync the feeds a subscription list names, repeatable, `-` for stdin: OPML 1.0/2.0 (every "
            + "outline with an xmlUrl, at any depth; relative ones against the file) or one URL a line (# comments "
            + "and blank lines skipped). Each feed is synced once. A bad file is a usage error naming its line or element")
    static let jobs = Flag(
        name: "jobs", short: "j", placeholder: "N", kind: .integer(1...256), summary: "downloads in flight at once",
        help: "downloads in flight at once (default \(defaults.jobs), 1–256)")
    static let perHost = Flag(
        name: "per-host", placeholder: "N", kind: .integer(1...256), summary: "downloads in flight to one host at most",
        help: "downloads in flight to one host at most, within --jobs (default \(defaults.perHost), as browsers keep; "
            + "1–256). A host is a scheme, name and port, as the URL asked for names it; while one host has its share, "
            + "the images of other hosts go ahead. A host that speaks HTTP/2 (over https) gets them as streams of one "
            + "connection")
    static let rate = Flag(
        name: "rate", placeholder: "R", kind: .positiveNumber, summary: "requests a second to one host at most",
        help: "requests a second to one host at most, e.g. 0.5 or 10 (default: no limit but --per-host); a host is "
            + "asked at once, then at that rate")
    static let timeout = Flag(
        name: "timeout", placeholder: "SECONDS", kind: .seconds, summary: "total time allowed per request",
        help: "total time allowed per request (default \(Int(defaults.timeout))); a transfer that moves nothing for "
            + "min(\(Int(defaults.stallTimeout)), SECONDS) seconds is a stall and fails")
    static let feedTimeout = Flag(
        name: "timeout", placeholder: "SECONDS", kind: .seconds, summary: "total time allowed for the request",
        help: "total time allowed for the request (default \(Int(defaults.timeout)))")
    static let retries = Flag(
        name: "retries", placeholder: "N", kind: .integer(0...10), summary: "retries after a connection error, timeout, 5xx, 408 or 429",
        help: "retries after a connection error, timeout, 5xx, 408 or 429 (default \(defaults.retry.attempts - 1), so "
            + "\(defaults.retry.attempts) attempts): exponential backoff from \(defaults.retry.baseDelay) s (max "
            + "\(Int(defaults.retry.maxDelay)) s) with jitter, or the server's Retry-After (seconds or HTTP date, at most "
            + "\(Int(defaults.retry.maxRetryAfter)) s). Other 4xx answers are never retried. A 429 or 503 with "
            + "Retry-After pauses that host alone: no request goes to it until then, the retry included, while other "
            + "hosts go on. A host that asks for more than \(Int(defaults.retry.maxRetryAfter)) s is not asked again in "
            + "that sync: its images fail, naming the host and the delay, and the next sync tries them again.")
    static let maxBytes = Flag(
        name: "max-bytes", placeholder: "N", kind: .integer(1...Int(Int32.max)), summary: "largest image accepted, in bytes",
        help: "largest image accepted, in bytes (default \(defaults.maxBytes))")
    static let maxFeedBytes = Flag(
        name: "max-feed-bytes", placeholder: "SIZE", kind: .byteSize, summary: "largest feed document accepted",
        help: "largest feed document accepted (default 64MB; SIZE as in `photomirror help prune`); a larger one fails "
            + "naming its URL and the limit")
    static let pages = Flag(
        name: "pages", placeholder: "N", kind: .integer(1...10_000), summary: "pages to follow for Flickr REST feeds",
        help: "pages to follow for Flickr REST feeds (default \(defaults.maxPages))")
    static let maxItems = Flag(
        name: "max-items", placeholder: "N", kind: .integer(1...10_000_000), summary: "take the newest N items of each feed",
        help: "take the newest N items of each feed, whatever its kind: by publication date (else the date taken); items "
            + "without a date come after dated ones, in the feed's order. Paged APIs stop asking for pages once they "
            + "have N (an offset-paged one such as Marvel asks for \(defaults.maxItems) without it). Default: every item")
    static let since = Flag(
        name: "since", placeholder: "DURATION|DATE", kind: .since, summary: "take only items published since then",
        help: "take only items published (else taken) since then: a duration back from now (30m, 12h, 7d, 2w) or a "
            + "date, 2026-11-01 (midnight UTC) or 2026-11-01T12:00:00Z. An item without a date is taken")
    static let minBytes = Flag(
        name: "min-bytes", placeholder: "SIZE", kind: .byteSize, summary: "skip images smaller than SIZE (icons, spacers)",
        help: "skip images smaller than SIZE (2kB, 500, as in `photomirror help prune`): icons, spacers and tracking "
            + "pixels. A skipped image is fetched but not stored, and is reported as skipped, not failed (status "
            + "\"skipped\" in the manifest and --json); the next sync asks for it again")
    static let minPixels = Flag(
        name: "min-pixels", placeholder: "WxH", kind: .pixelSize, summary: "skip images narrower than W or shorter than H",
        help: "skip images narrower than W or shorter than H pixels, e.g. 32x32: icons and spacers. The size is the "
            + "one the image's header declares, upright (an EXIF rotation by 90° exchanges its sides), read before "
            + "anything is decoded. A skipped image is fetched but not stored, and is reported as skipped, not failed, "
            + "as with --min-bytes; an image the cache already holds is kept")
    static let maxImagesPerItem = Flag(
        name: "max-images-per-item", placeholder: "N", kind: .integer(1...1000), summary: "images mirrored per item at most",
        help: "images mirrored per item at most, in the feed's order (default \(defaults.maxImagesPerItem), 1–1000): "
            + "media:content, enclosures, itunes:image, <img> in the item's HTML, …; the first is the one the gallery shows")
    static let userAgent = Flag(
        name: "user-agent", placeholder: "TEXT", kind: .headerText, summary: "the User-Agent header of every request",
        help: "the User-Agent header of every request, in place of \"\(CurlLoader.defaultUserAgent)\": add a way to reach "
            + "the operator, e.g. \"photomirror/0.1 (+mailto:me@example.org)\"")
    static let allowPrivateAddresses = Flag(
        name: "allow-private-addresses", kind: .toggle, summary: "let feeds lead to any address, private ones included",
        help: "let feeds lead to any address. By default a feed at a public address, its redirects, pages and images "
            + "may not reach loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local "
            + "(169.254/16, the cloud metadata address, fe80::/10) or unspecified addresses: the address actually "
            + "connected to is checked, whatever name led there. A feed at such an address may reach the addresses of "
            + "its own kind (one at 127.0.0.1 other loopback ones, one at 192.168.1.2 other private ones); a file:// "
            + "feed counts as a loopback one")
    static let revalidate = Flag(
        name: "revalidate", kind: .toggle, summary: "ask the servers again about every cached image",
        help: "ask the server again about every cached image, with the stored ETag / Last-Modified: 304 keeps the "
            + "cached copy, new bytes replace it (new original and thumbnails, manifest repointed)")
    static let refetchEvicted = Flag(
        name: "refetch-evicted", kind: .toggle, summary: "download again the images a prune evicted",
        help: "download again the images of listed items whose original (or whole image) a prune evicted. Without it "
            + "a sync leaves them evicted: the gallery shows their thumbnail, and under --max they would only be "
            + "evicted again. A new --size or --revalidate also fetches an evicted original")
}
