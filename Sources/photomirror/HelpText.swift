/// `--help` texts. Kept beside the parsers they describe; the README quotes the same facts.
enum HelpText {
    static let main = """
    photomirror — mirror the images of photo feeds into a content-addressed thumbnail cache

    USAGE
      photomirror sync [options] <feed-url>...   mirror feeds (http, https or file://)
      photomirror thumb [--size WxH] -o DIR FILE...   make PNG thumbnails of local images
      photomirror verify [--cache DIR]           check that the cache and its index agree
      photomirror serve [--cache DIR] [--port N] [--bind ADDR]   show the gallery on http://127.0.0.1:8080/
      photomirror help [command]                 show help

    FEEDS
      Flickr public feed (JSON or JSONP), Flickr REST photos.search/getRecent, Marvel API
      (paged; signed when MARVEL_PUBLIC_KEY and MARVEL_PRIVATE_KEY are set), RSS 2.0,
      Atom, JSON Feed. The kind is detected from the content.

    CACHE
      --cache DIR, else $PHOTOMIRROR_CACHE, else $XDG_CACHE_HOME/photomirror, else
      ~/.cache/photomirror. The layout is described in cache-layout.md.

    EXIT CODES
      0  everything succeeded
      1  some items failed (sync, thumb) or the cache is damaged (verify)
      2  usage error
      3  a feed could not be fetched or parsed
      4  the cache could not be opened, locked or written (e.g. disk full)
      130, 143  interrupted by SIGINT or SIGTERM (the cache stays consistent)
    """

    static let sync = """
    photomirror sync [options] <feed-url>...

    Fetches each feed, downloads every image it names (each URL once, however many feeds
    name it), makes thumbnails and writes the cache, a manifest per feed and index.html.
    Images already in the cache are not downloaded again.

    OPTIONS
      --cache DIR          cache folder (see `photomirror help`)
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
      --wait SECONDS       how long to wait for another writer's lock (default 5)
      --json               print a JSON summary on stdout
      --quiet              print nothing but errors
      --verbose            print one line per item

    OUTPUT
      On a terminal, one live line on stderr shows images done/total, failures, bytes, rate
      and ETA. Otherwise (a pipe, a log) there are no control characters: a line per feed and
      a summary. The last line names the gallery (file://…/index.html). NO_COLOR is honoured.
    """

    static let thumb = """
    photomirror thumb [--size WxH] -o DIR FILE...

    Makes a PNG thumbnail of each JPEG or PNG file: DIR/<file name without extension>.png,
    centre-cropped to the size's aspect and area-averaged (default 40x40). A file that cannot
    be decoded is reported on stderr with its reason; the others still succeed.

    OPTIONS
      -o, --output DIR     output folder (created if missing)
      --size WxH           thumbnail size (default 40x40)
      --max-pixels N       largest decoded image, in pixels (default 100000000)
      --jobs N             files processed at once (default: one per core)
    """

    static let verify = """
    photomirror verify [--cache DIR]

    Checks that every file the index names exists with the right size and SHA-256, and that
    no manifest points at a missing file (damage: exit 1). Files that no index row names and
    temp files left by an interrupted writer are reported as garbage (exit 0).
    """

    static let serve = """
    photomirror serve [--cache DIR] [--port N] [--bind ADDR]

    Serves the cache folder over HTTP (libmicrohttpd) until Ctrl-C or SIGTERM, and prints its
    URL on stdout. GET and HEAD only; ETag/304, byte ranges, and Cache-Control that lets
    browsers keep originals and thumbnails forever (they are named by their content) and
    re-check pages and manifests after a minute. Never serves the index, the lock, temp files,
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
