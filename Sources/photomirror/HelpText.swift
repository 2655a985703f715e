/// `--help` texts. Kept beside the parsers they describe; the README quotes the same facts.
enum HelpText {
    static let main = """
    photomirror — mirror the images of photo feeds into a content-addressed thumbnail cache

    USAGE
      photomirror sync [options] <feed-url>... [--feeds FILE]   mirror feeds (http, https or file://)
      photomirror thumb [--size WxH] -o DIR FILE...   make PNG thumbnails of local images
      photomirror verify [--repair] [--cache DIR]   check (and repair) that the cache and its index agree
      photomirror prune --max SIZE [--max-age DURATION] [--dry-run]   keep the cache within a size
      photomirror stats [--json] [--cache DIR]   what the cache holds, and the last sync's hit ratio
      photomirror serve [--cache DIR] [--port N] [--bind ADDR]   show the gallery on http://127.0.0.1:8080/
      photomirror feed [--json] <feed-url | file>   what photomirror reads in a feed, without syncing it
      photomirror help [command]                 show help

    FEEDS
      Flickr public feed (JSON or JSONP), Flickr REST photos.search/getRecent, Marvel API
      (paged; signed when MARVEL_PUBLIC_KEY and MARVEL_PRIVATE_KEY are set), RSS 0.90, 0.91–0.94,
      1.0 (RDF) and 2.0, Atom 0.3 and 1.0, JSON Feed 1.0/1.1. The kind is detected from the
      content; sloppy XML (a bare &, HTML entities, mismatched tags) is recovered with a
      warning, and the charset comes from the byte-order mark, the HTTP charset, the XML
      declaration, else UTF-8 or windows-1252. An item's images are its media:content,
      image enclosures, itunes:image / googleplay:image and the <img>s of its HTML, in that
      order (media:thumbnail when nothing larger is given); the first is the gallery's.

    CACHE
      --cache DIR, else $PHOTOMIRROR_CACHE, else $XDG_CACHE_HOME/photomirror, else
      ~/.cache/photomirror. The layout is described in cache-layout.md.

    EXIT CODES
      0  everything succeeded
      1  some items failed (sync, thumb), the cache is damaged (verify), or prune could
         not get under the limit
      2  usage error
      3  a feed could not be fetched or parsed
      4  the cache could not be opened, locked or written (e.g. disk full), or another
         writer (sync, prune, verify --repair) held its lock for longer than --wait
      130, 143  interrupted by SIGINT or SIGTERM (the cache stays consistent)
    """

    static let sync = """
    photomirror sync [options] <feed-url>... [--feeds FILE]...

    Fetches each feed, downloads every image it names (each URL once, however many feeds
    name it), makes thumbnails and writes the cache, a manifest and a JSON Feed (feed.json,
    its images the mirrored ones) per feed and index.html.
    Images already in the cache are not downloaded again (an image URL is treated as
    immutable), unless --revalidate. An item whose original prune evicted is downloaded again.
    Each feed is asked for with the ETag / Last-Modified it last answered with (a paged API's
    first page): a 304 means unchanged, so it is not read again and its manifest, JSON Feed
    and pages stay as they are.

    OPTIONS
      --cache DIR          cache folder (see `photomirror help`)
      --feeds FILE         also sync the feeds a subscription list names, repeatable, `-` for
                           stdin: OPML 1.0/2.0 (every outline with an xmlUrl, at any depth;
                           relative ones against the file) or one URL a line (# comments and
                           blank lines skipped). Each feed is synced once. A bad file is a
                           usage error naming its line or element
      --size WxH           thumbnail size, repeatable (default 40x40; the first is the gallery's)
      --scales 1,2,3       also make the first size at these multiples (80x80, 120x120 for
                           high-density screens); the gallery offers them through srcset
      --jobs N             downloads in flight at once (default 16, 1–256)
      --timeout SECONDS    total time allowed per request (default 30); a transfer that
                           moves nothing for min(15, SECONDS) seconds is a stall and fails
      --retries N          retries after a connection error, timeout, 5xx, 408 or 429
                           (default 2, so 3 attempts): exponential backoff from 0.5 s (max 8 s)
                           with jitter, or the server's Retry-After (seconds or HTTP date, at
                           most 30 s). Other 4xx answers are never retried.
      --max-bytes N        largest image accepted, in bytes (default 50000000)
      --max-pixels N       largest decoded image, in pixels (default 100000000)
      --pages N            pages to follow for Flickr REST feeds (default 1)
      --max-items N        most items taken from offset-paged APIs such as Marvel (default 100)
      --max-images-per-item N
                           images mirrored per item at most, in the feed's order (default 20,
                           1–1000): media:content, enclosures, itunes:image, <img> in the
                           item's HTML, …; the first is the one the gallery shows
      --wait SECONDS       how long to wait for another writer's lock (default 5)
      --max SIZE           after the sync, if the cache uses more than SIZE on disk, prune it
                           to 80% of SIZE (so the next syncs don't prune at once); SIZE as in
                           `photomirror help prune`. Default: max_size in <cache>/config.json
      --user-agent TEXT    the User-Agent header of every request, in place of
                           "photomirror/0.1 (+https://github.com/photomirror)": add a way to
                           reach the operator, e.g. "photomirror/0.1 (+mailto:me@example.org)"
      --revalidate         ask the server again about every cached image, with the stored
                           ETag / Last-Modified: 304 keeps the cached copy, new bytes replace
                           it (new original and thumbnails, manifest repointed)
      --json               print a JSON summary on stdout
      --quiet              print nothing but errors
      --verbose            print one line per item

    OUTPUT
      On a terminal, one live line on stderr shows images done/total, failures, bytes, rate
      and ETA. Otherwise (a pipe, a log) there are no control characters: a line per feed and
      a summary. The last line names the gallery (file://…/index.html). NO_COLOR is honoured.
      A feed that had to be repaired to be read (malformed XML, a guessed charset) gets a
      "warning:" line per repair, and the same words in its manifest's "warnings"; it still
      succeeds. Items without any image are counted "without image", never as failures.
      A feed that answered 304 says "unchanged (304)" and the summary counts those feeds;
      --json gives each feed "unchanged": true or false.
    """

    static let feed = """
    photomirror feed [options] <feed-url | file>

    Fetches and reads a feed as `sync` would (paging, Marvel signing, limits) and prints what
    it found: its kind, title and image, every item with each of its images and where the
    feed put it (media:content, enclosure, itunes:image, html, …), items without an image
    and why, unreadable entries, and what had to be repaired to read it. Touches no cache.

    OPTIONS
      --json               print it as JSON on stdout
      --max-images-per-item N   as for sync (default 20)
      --pages N, --max-items N  as for sync
      --timeout SECONDS    total time allowed for the request (default 30)
      --user-agent TEXT    as for sync

    Exit 0 when the feed was read, 3 when it could not be fetched or parsed.
    """

    static let thumb = """
    photomirror thumb [--size WxH] -o DIR FILE...

    Makes a PNG thumbnail of each JPEG, PNG, WebP, GIF (first frame), AVIF or HEIC file
    (told apart by its bytes): DIR/<file name without extension>.png, in sRGB (an embedded
    colour profile is converted), upright (EXIF or XMP orientation, HEIF transforms),
    centre-cropped to the size's aspect and area-averaged (default 40x40). A file that cannot
    be decoded is reported on stderr with its reason; the others still succeed.

    OPTIONS
      -o, --output DIR     output folder (created if missing)
      --size WxH           thumbnail size (default 40x40)
      --max-pixels N       largest decoded image, in pixels (default 100000000)
      --jobs N             files processed at once (default: one per core)
    """

    static let verify = """
    photomirror verify [--repair] [--cache DIR] [--wait SECONDS]

    Checks that every file the index names exists with the right size and SHA-256, and that
    no manifest, JSON Feed or gallery page points at a missing file (damage: exit 1). Files
    that no index row names and temp files left by an interrupted writer are reported as
    garbage, and a feed.json that is missing or lists other items than its manifest as stale
    (both exit 0). Without --repair it only reads, takes no lock and never waits for a writer.

    OPTIONS
      --repair             fix what was found, under the writers' lock: drop the rows of missing
                           or wrong files (their items become evicted-original or evicted, and
                           the next sync fetches them again), rewrite manifests, JSON Feeds
                           and the gallery, then delete wrong files, orphans and temp files.
                           Exit 0 when the cache then verifies.
      --wait SECONDS       with --repair: how long to wait for another writer's lock (default 5)
      --quiet              do not list garbage and stale files
    """

    static let prune = """
    photomirror prune --max SIZE [--max-age DURATION] [--dry-run] [--cache DIR]

    Keeps the cache folder within SIZE of disk, as `du` counts it (allocated blocks of every
    file and folder: images, index, manifests, gallery). Images no sync has listed for
    DURATION expire first. Then originals go, least recently used first (a sync listing an
    item counts as use; an image shared by several items or feeds is as recent as the most
    recent of them), until the cache fits; thumbnails go only if removing every original is
    not enough. Prune stops as soon as the cache fits, so it ends less than one image below
    SIZE. Temp files and orphans are deleted too. Manifests and the gallery are rewritten:
    items say evicted-original (thumbnail kept) or evicted, and no page shows a broken image.

    SIZE      500MB, 500M, 1.5GB, 800KB, 123B (K, M, G, T are powers of 1000), 2GiB, 512MiB
              (KiB, MiB, GiB, TiB are powers of 1024), or bytes: 750000000
    DURATION  30m, 12h, 7d, 2w (also s)

    OPTIONS
      --max SIZE           the limit; default: max_size in <cache>/config.json
      --max-age DURATION   expire images not listed by any sync for this long
      --dry-run            print what would be evicted; change nothing, take no lock
      --wait SECONDS       how long to wait for another writer's lock (default 5)
      --json               print a JSON report on stdout
      --quiet              print nothing unless the limit cannot be reached

    Exit 1 when even evicting everything leaves the cache over SIZE.
    """

    static let stats = """
    photomirror stats [--json] [--cache DIR]

    Prints what the cache holds: feeds, items by status, originals and thumbnails (count and
    bytes), disk use by kind (as `du` counts it), the oldest and newest access, the cache's
    max_size, and the last sync's images downloaded and reused with its hit ratio
    (reused / (reused + downloaded)). Read-only: never waits for a writer.
    """

    static let serve = """
    photomirror serve [--cache DIR] [--port N] [--bind ADDR]

    Serves the cache folder over HTTP (libmicrohttpd) until Ctrl-C or SIGTERM, and prints its
    URL on stdout. GET and HEAD only; ETag/304, byte ranges, and Cache-Control that lets
    browsers keep originals and thumbnails forever (they are named by their content) and
    re-check pages, manifests and JSON Feeds after a minute. Never serves the index, the lock, temp files,
    folder listings or anything outside the cache (symlinks included).

    OPTIONS
      --cache DIR          cache folder (see `photomirror help`)
      --port N             TCP port (default 8080; 0 picks a free one)
      --bind ADDR          address to listen on (default 127.0.0.1, this machine only)
      --threads N          server threads (default 4)
      --quiet              print only the URL and errors

    Exits 0 when stopped by a signal, 4 when the cache folder or the address can't be used
    (e.g. the port is taken).
    """
}
