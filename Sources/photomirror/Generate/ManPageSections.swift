/// The man page's sections that no command or flag definition holds: EXAMPLES, FILES,
/// ENVIRONMENT and SEE ALSO, written in roff.
enum ManPageSections {
    static let examples = ".SH EXAMPLES\n" + [
        ("Mirror a feed into the default cache, then open the gallery it printed:",
         "photomirror sync https://example.org/photos.rss"),
        ("Mirror a feed saved on disk (any path without a scheme is a local file):",
         "photomirror sync ./saved/feed.xml"),
        ("Larger thumbnails, also at twice the size for high\\-density screens; later plain syncs keep them:",
         "photomirror sync \\-\\-size 160x160 \\-\\-scales 1,2 https://example.org/feed.atom"),
        ("Say what a sync would download, store and evict, writing nothing:",
         "photomirror sync \\-n \\-\\-max 2GB https://example.org/feed.json"),
        ("Keep a cache of every feed an OPML list names fresh, polling each at most hourly:",
         "photomirror watch \\-\\-every 1h \\-\\-cache /srv/photos \\-\\-feeds subscriptions.opml"),
        ("Keep the cache under 500 MB, then check and repair it:",
         "photomirror prune \\-\\-max 500MB\n.br\nphotomirror verify \\-\\-repair"),
        ("Show the gallery on http://127.0.0.1:8080/:", "photomirror serve"),
        ("Make 80\\(mu80 thumbnails of local files:", "photomirror thumb \\-\\-size 80x80 \\-o thumbs *.jpg"),
        ("Mirror a feed with WebP thumbnails that show each whole photo, letterboxed:",
         "photomirror sync \\-\\-format webp \\-\\-fit contain https://example.org/feed.atom"),
    ].map { ".PP\n\($0.0)\n.PP\n.RS 4\n.nf\n\($0.1)\n.fi\n.RE\n" }.joined()

    static let files = ".SH FILES\n" + [
        ("$XDG_CACHE_HOME/photomirror, else ~/.cache/photomirror",
         "the cache when neither \\-\\-cache nor PHOTOMIRROR_CACHE names one"),
        ("$XDG_CONFIG_HOME/photomirror/config.json, else ~/.config/photomirror/config.json",
         "the user's defaults for every cache (sizes, scales, format, quality, fit, jobs, per_host, rate, user_agent, "
            + "max_size, max_age, store, gallery_title); see photomirror config"),
        ("CACHE/config.json", "the cache's own settings, which beat the user's; sync records the flags that stick here"),
        ("CACHE/index.sqlite", "the index, the single source of truth (SQLite); verify \\-\\-repair rebuilds it"),
        ("CACHE/index.html, CACHE/feeds/*/index.html", "the gallery"),
        ("CACHE/feeds/*/manifest.json, CACHE/feeds/*/feed.json", "each feed's manifest and JSON Feed"),
        ("CACHE/originals/, CACHE/thumbs/WxH/ (WxH\\-contain.webp, \\[u2026])",
         "the images, named by the SHA\\-256 of the original's bytes; a thumbnail folder names its size, fit and format"),
        ("CACHE/lock", "held by the one writer (sync, watch's rounds, prune, verify \\-\\-repair)"),
    ].map { ".TP\n.I \($0.0)\n\($0.1)\n" }.joined()

    static let environment = ".SH ENVIRONMENT\n" + [
        ("PHOTOMIRROR_CACHE", "the cache folder when \\-\\-cache is not given"),
        ("XDG_CACHE_HOME", "the cache is $XDG_CACHE_HOME/photomirror when neither \\-\\-cache nor PHOTOMIRROR_CACHE is "
            + "set (default ~/.cache)"),
        ("XDG_CONFIG_HOME", "the user's config.json is $XDG_CONFIG_HOME/photomirror/config.json (default ~/.config)"),
        ("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY", "the credentials for a \\-\\-store bucket"),
        ("AWS_SESSION_TOKEN", "with temporary credentials, their session token"),
        ("AWS_REGION", "the bucket's region (default us\\-east\\-1)"),
        ("AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL", "an S3\\-compatible endpoint (path\\-style requests), the first set "
            + "wins; without one, AWS's own with virtual\\-host style"),
        ("CURL_CA_BUNDLE, SSL_CERT_FILE", "a PEM file of CA certificates that https servers are checked against in "
            + "place of libcurl's bundle, as curl \\-\\-cacert (the first set wins; libcurl's CA folder, /etc/ssl/certs "
            + "on Debian, is still trusted)"),
        ("NO_COLOR", "when set, no colour on the terminal"),
        ("MARVEL_PUBLIC_KEY, MARVEL_PRIVATE_KEY", "sign Marvel API requests"),
        ("COLUMNS", "the width help text wraps at (else the terminal's, else 80) and the live progress line's"),
    ].map { ".TP\n.B \($0.0)\n\($0.1)\n" }.joined()

    /// Only pages and files Scripts/install puts in place beside this one.
    static let seeAlso = ".SH SEE ALSO\n"
        + "The systemd units installed beside this page: photomirror\\-sync.service and photomirror\\-sync.timer "
        + "(a daily sync), photomirror\\-watch.service (a long\\-running watch), in PREFIX/lib/systemd/system. "
        + "The shell completions come from\n.BR \"photomirror generate\" .\n"
}
