/// Every command photomirror has, in the order `photomirror help` lists them.
extension CommandSpec {
    static let all: [CommandSpec] = [.sync, .watch, .thumb, .verify, .prune, .stats, .serve, .feed, .config, .generate]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The flags `sync` reads; `watch` takes the same.
    static let syncFlags: [Flag] = [
        .cache, .store, .moveStore, .feeds, .size, .scales, .format, .quality, .fit, .jobs, .perHost, .rate, .timeout, .retries, .maxBytes, .maxFeedBytes, .maxPixels, .pages, .maxItems, .since, .minBytes, .minPixels,
        .maxImagesPerItem, .wait, .syncMax, .garbageGrace, .userAgent, .allowPrivateAddresses, .revalidate, .refetchEvicted, .syncDryRun, .json, .quiet, .verbose, .statsEvery,
    ]

    static let sync = CommandSpec(
        name: "sync", synopsis: "[--cache DIR] [--store s3://BUCKET[/PREFIX]] [options] <feed-url>... [--feeds FILE]...",
        tagline: "mirror feeds (http, https, file:// or a local path)",
        about: """
        A feed is a URL with its scheme (http://, https://, file://) or the path of a local file,
        absolute or relative; a name that is neither (example.org/feed, a missing file) is a usage
        error, with https:// suggested for what reads as a host and path.
        Fetches each feed, downloads every image it names (each URL once, however many feeds
        name it), makes thumbnails and writes the cache, a manifest and a JSON Feed (feed.json,
        its images the mirrored ones) per feed and index.html.
        Images already in the cache are not downloaded again (an image URL is treated as
        immutable), unless --revalidate. An item whose original (or whole image) a prune evicted
        is left so, its thumbnail shown, unless --refetch-evicted, --revalidate or a new --size
        needs the original.
        Each feed is asked for with the ETag / Last-Modified it last answered with (a paged API's
        first page): a 304 means unchanged, so it is not read again and its manifest, JSON Feed
        and pages stay as they are.
        The first sync with --store records the store in the cache's config.json; every later
        command on the cache (sync, watch, verify, prune, stats) uses it without --store, and a
        different --store is refused (exit 2), since the index describes the objects in that
        store. --move-store copies the cache's published files to the new store and records it.
        """,
        flags: syncFlags,
        notes: """
        OUTPUT
        On a terminal, one live line on stderr shows images done/total, failures, bytes, rate
        and ETA. Otherwise (a pipe, a log) there are no control characters: a "progress:" line
        every --stats-every, a line per feed and a summary with the elapsed time. The last line
        names the gallery (file://…/index.html). NO_COLOR is honoured. --json prints one
        versioned document on stdout and nothing else there (docs/json.md).
        A feed that had to be repaired to be read (malformed XML, a guessed charset) gets a
        "warning:" line per repair, and the same words in its manifest's "warnings"; it still
        succeeds. Items without any image are counted "without image", never as failures.
        A feed that answered 304 says "unchanged (304)" and the summary counts those feeds;
        --json gives each feed "unchanged": true or false.
        """,
        operandCompletion: .none)

    /// sync's flags but its output ones, and how often.
    static let watchFlags: [Flag] = [.every] + syncFlags.filter { !["json", "quiet", "verbose", "move-store", "dry-run"].contains($0.name) }
        + [.watchJSON, .watchQuiet, .watchVerbose]

    static let watch = CommandSpec(
        name: "watch", synopsis: "[--every DURATION] [--cache DIR] [--store s3://BUCKET[/PREFIX]] [sync options] <feed-url>... | --feeds FILE...",
        tagline: "keep a mirror fresh: sync each feed whenever it is due",
        about: """
        Keeps a mirror fresh until SIGINT or SIGTERM. Feeds are named as for sync. Each feed is due again --every after its
        last poll, or later if the feed asks (RSS <ttl>, Cache-Control max-age, Expires,
        Retry-After); a restarted watch remembers, from the cache, when each feed was polled and
        what it asked for. A round syncs the feeds that are due together, with one download pool,
        exactly as `sync` does (conditional requests, so an unchanged feed costs one 304), then
        prunes if the cache is over --max or config.json's max_size. The writer's lock is held
        only during a round: prune, verify and stats run between rounds. A feed that answers
        410 Gone is reported and polled no more, even by a restarted watch, until a `sync` of its
        URL by hand succeeds. A round that cannot run (the cache locked past --wait, a full
        disk) is reported and tried again after --every.
        """,
        flags: watchFlags,
        notes: """
        OUTPUT
        One line per round on stderr: feeds synced, unchanged (304), failed and gone, new images,
        and when the next round is due; a "feed failed:" line per failed feed. --json prints the
        same as one JSON object a line on stdout.

        EXIT
        130 or 143 when stopped by SIGINT or SIGTERM (during a round, it stops within seconds;
        what the round finished is kept and the cache is consistent), 3 when every feed is gone,
        2 on a usage error. A round's failures do not end the watch.
        """)

    static let feed = CommandSpec(
        name: "feed", synopsis: "[options] <feed-url | file>",
        tagline: "what photomirror reads in a feed, without syncing it",
        about: """
        Fetches and reads a feed (a URL or a local path, named as for sync) as `sync` would (paging, Marvel signing, limits) and prints what
        it found: its kind, title and image, every item with each of its images and where the
        feed put it (media:content, enclosure, itunes:image, html, …), items without an image
        and why, unreadable entries, and what had to be repaired to read it. Touches no cache.
        """,
        flags: [.feedJSON, .maxImagesPerItem, .pages, .maxItems, .since, .maxFeedBytes, .feedTimeout, .userAgent, .allowPrivateAddresses],
        notes: """
        EXIT
        0 when the feed was read, 3 when it could not be fetched or parsed.
        """,
        operandCompletion: .files)

    static let thumb = CommandSpec(
        name: "thumb", synopsis: "[--size WxH] [--format FORMAT] [--fit FIT] -o DIR FILE...",
        tagline: "make thumbnails of local images",
        about: """
        Makes a thumbnail of each JPEG, PNG, WebP, GIF (first frame), AVIF or HEIC file (told
        apart by its bytes): DIR/<file name without extension>.png (or .webp, .avif, .jpg with
        --format), in sRGB (an embedded colour profile is converted), upright (EXIF or XMP
        orientation, HEIF transforms), centre-cropped to the size's aspect (--fit contain:
        letterboxed whole) and area-averaged (default 40x40). A file that cannot be decoded is
        reported on stderr with its reason; the others still succeed.
        Inputs whose names would make the same thumbnail (a/x.jpg, b/x.jpg and a/x.png all make
        DIR/x.png) are refused with exit 2 before anything is written, each clash named; a file
        already in DIR under an input's thumbnail name is replaced, as a rerun expects.
        """,
        flags: [.output, .thumbSize, .format, .quality, .fit, .maxPixels, .thumbJobs],
        operandCompletion: .files)

    static let verify = CommandSpec(
        name: "verify", synopsis: "[--repair] [--deep] [--cache DIR] [--store s3://BUCKET[/PREFIX]] [--wait SECONDS]",
        tagline: "check (and repair) that the cache and its index agree",
        about: """
        Checks the index itself first (SQLite's quick_check; --deep: integrity_check): a damaged
        index, or a missing one in a folder that holds a cache's files, is damage (exit 1), named
        with the next step, `photomirror verify --repair`, which rebuilds it from the manifests
        and the content files. Then checks that every file the index names exists with the right
        size and SHA-256, and that no manifest, JSON Feed or gallery page points at a missing file
        (damage: exit 1). Files that no index row names and temp files left by an interrupted
        writer are reported as garbage, and a feed.json that is missing or lists other items than
        its manifest as stale (both exit 0). Without --repair it only reads, takes no lock and
        never waits for a writer. With a store (--store, or the one config.json records) the
        bucket is checked against this writer's index: each object listed with its row's size
        (--deep: fetched and hashed), this writer's pages and the root page for broken links;
        another writer's objects are not garbage. A cache
        whose index names files while its folder holds none of them and config.json records no
        store (synced into a bucket by an older photomirror) is refused with exit 2 until --store
        names the bucket: it is never judged, nor repaired, from the folder.
        """,
        flags: [.cache, .store, .repair, .deep, .repairWait, .garbageGrace, .json, .verifyQuiet])

    static let prune = CommandSpec(
        name: "prune", synopsis: "--max SIZE [--max-age DURATION] [--dry-run] [--cache DIR] [--store s3://BUCKET[/PREFIX]]",
        tagline: "keep the cache within a size",
        about: """
        Keeps the cache folder within SIZE of disk, as `du` counts it (allocated blocks of every
        file and folder: images, index, manifests, gallery). Images no sync has listed for
        DURATION expire first. Then originals go, least recently used first (a sync listing an
        item counts as use; an image shared by several items or feeds is as recent as the most
        recent of them), until the cache fits; an image no feed lists any more goes whole
        (original and thumbnails: no page shows it), and the thumbnails of listed items go only
        if removing every original is not enough. Once the cache is over SIZE, prune trims it
        to 80% of SIZE (ending within 75-100% of that), so the next syncs add their new images
        without pruning again; a cache within SIZE is left as it is. `sync --max` prunes by
        the same rule, as it stores and when done. A plain sync leaves evicted images so (their
        thumbnail shown); `sync --refetch-evicted` fetches them back. Temp files and orphans
        are deleted too. Manifests and the gallery are rewritten: items say evicted-original (thumbnail
        kept) or evicted, and no page shows a broken image. In a bucket other writers share
        (--store), SIZE covers what this writer owns (what its index names, its feeds' pages,
        garbage past --garbage-grace); while another writer's heartbeat is live nothing is
        deleted.
        """,
        flags: [.cache, .store, .pruneMax, .maxAge, .garbageGrace, .dryRun, .wait, .json, .pruneQuiet],
        notes: """
        VALUES
        SIZE      500MB, 500M, 1.5GB, 800KB, 123B (K, M, G, T are powers of 1000), 2GiB, 512MiB
                  (KiB, MiB, GiB, TiB are powers of 1024), or bytes: 750000000
        DURATION  30m, 12h, 7d, 2w (also s)

        EXIT
        1 when even evicting everything leaves the cache over SIZE.
        """)

    static let stats = CommandSpec(
        name: "stats", synopsis: "[--json] [--cache DIR] [--store s3://BUCKET[/PREFIX]]",
        tagline: "what the cache holds, and the last sync's hit ratio",
        about: """
        Prints what the cache holds: feeds, items by status, originals and thumbnails (count and
        bytes), disk use by kind (as `du` counts it), the oldest and newest access, the cache's
        max_size, and the last sync's images downloaded and reused with its hit ratio
        (reused / (reused + downloaded)). Read-only: never waits for a writer. With a store (--store,
        or the one config.json records) the use by kind is the bucket's objects under the prefix
        (the index stays in the folder).
        """,
        flags: [.cache, .store, .json])

    static let serve = CommandSpec(
        name: "serve", synopsis: "[--cache DIR] [--port N] [--bind ADDR]",
        tagline: "show the gallery on http://127.0.0.1:8080/",
        about: """
        Serves the cache folder over HTTP (libmicrohttpd) until Ctrl-C or SIGTERM, and prints its
        URL on stdout. GET and HEAD only; ETag and Last-Modified (304, 412), byte ranges, and
        Cache-Control that lets browsers keep originals and thumbnails forever (they are named by
        their content) and re-check pages, manifests and JSON Feeds after a minute. Serves only the
        published tree (pages, manifests, JSON Feeds, cards, the icon, originals, thumbnails): never
        config.json, the index, the lock, temp files, folder listings or anything outside the cache
        (symlinks included).
        Originals and thumbnails answered to a GET (200, 206 or 304) count as used for prune's
        least-recently-used order: written into the index every 5 seconds and when stopped, never
        holding up a request. A cache that is read-only or older than this version (schema 1) is
        served without counting, said once on stderr (not with --quiet). A cache whose files are in
        a bucket (config.json's store) is not served (exit 4): the bucket is the static site, to
        be served by the store's own website endpoint or a CDN.
        One client can't starve the others: it keeps at most --max-per-client connections (64)
        open, all clients together --max-connections (1024), and a connection that sends and
        takes nothing for 10 seconds (half a request, a client that stopped reading) is closed.
        A request must arrive whole within 10 seconds however it trickles, and near the total the
        connection that has waited longest for its request is closed to let a newcomer in.
        """,
        flags: [.cache, .port, .bind, .threads, .maxPerClient, .maxConnections, .serveQuiet],
        notes: """
        EXIT
        0 when stopped by a signal, 4 when the cache folder or the address can't be used
        (e.g. the port is taken).
        """)

    static let config = CommandSpec(
        name: "config", synopsis: "[--cache DIR] [--json]",
        tagline: "the settings a cache's commands use, and where each comes from",
        about: """
        Prints the settings a sync of the cache would use without flags (sizes, scales, jobs,
        per_host, rate, user_agent, max_size, max_age, store, gallery_title), each with where it
        came from: the cache's config.json, the user's config.json
        ($XDG_CONFIG_HOME/photomirror/config.json, else ~/.config/photomirror/config.json) or
        photomirror's built-in default. A flag beats the cache's file, which beats the user's,
        which beats the default. A sync or watch given --size, --scales, --jobs, --per-host, --rate
        or --user-agent records them in the cache's config.json, so the next plain sync keeps
        them; limits (--max, prune's --max-age) hold for their run unless written in a file.
        Reads the two files only: creates nothing. See docs/configuration.md.
        """,
        flags: [.cache, .configJSON],
        notes: """
        EXIT
        2 when the user's config.json has an unknown key or a bad value (naming the file, the key
        and the known keys), 4 when the cache's has.
        """)

    static let generate = CommandSpec(
        name: "generate", synopsis: "man | bash | zsh | fish",
        tagline: "print the man page or a shell completion script",
        about: """
        Prints photomirror's man page (roff, for `man -l -`) or its completion script for bash,
        zsh or fish on stdout, made from the same definitions as --help. Scripts/install puts
        them in place.
        """,
        flags: [],
        operandCompletion: .words(["man", "bash", "zsh", "fish"]))
}
