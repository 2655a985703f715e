/// Flags of one command each: sync's output, serve, thumb, feed.
extension Flag {
    static let verbose = Flag(
        name: "verbose", short: "v", kind: .toggle, summary: "print one line per request and per item",
        help: "print one line per request as it ends (URL, HTTP status, bytes, time) and one per item at the end")
    static let statsEvery = Flag(
        name: "stats-every", placeholder: "DURATION", kind: .duration, summary: "when stderr is not a terminal, a progress line this often",
        help: "when stderr is not a terminal (a log, cron, journald), print a progress line this often while a sync "
            + "runs (a watch: during each round, not between rounds): images done and total, failures, bytes, rate, "
            + "ETA and time elapsed (default 30s, as rclone's --stats; 1s, 5m)")
    static let feedJSON = Flag(
        name: "json", kind: .toggle, summary: "print it as JSON on stdout",
        help: "print it as JSON on stdout")

    static let port = Flag(
        name: "port", placeholder: "N", kind: .integer(0...65535), summary: "TCP port",
        help: "TCP port (default 8080; 0 picks a free one)")
    static let bind = Flag(
        name: "bind", placeholder: "ADDR", kind: .text, summary: "address to listen on",
        help: "address to listen on (default 127.0.0.1, this machine only)")
    static let threads = Flag(
        name: "threads", placeholder: "N", kind: .integer(1...64), summary: "server threads",
        help: "server threads (default 4)")
    static let maxPerClient = Flag(
        name: "max-per-client", placeholder: "N", kind: .integer(0...1_000_000),
        summary: "connections one client address may keep open",
        help: "connections one client (IP address) may keep open at once (default 64; 0 for no limit); more are closed "
            + "as soon as they connect, so one client cannot take the server from the others. Behind a reverse proxy or "
            + "CDN every request comes from the proxy's address: raise it to what the proxy opens, or 0")
    static let maxConnections = Flag(
        name: "max-connections", placeholder: "N", kind: .integer(1...1_000_000),
        summary: "connections kept open at once in all",
        help: "connections kept open at once over all clients (default 1024; lowered, and said, when the open-file limit "
            + "cannot be raised to fit them); near it, the connection that has waited longest for a whole request is "
            + "closed to let a newcomer in, and past it a client waits until one closes. Must be above --max-per-client")
    static let serveQuiet = Flag(
        name: "quiet", short: "q", kind: .toggle, summary: "print only the URL and errors",
        help: "print only the URL and errors")

    static let output = Flag(
        name: "output", short: "o", placeholder: "DIR", kind: .directory, summary: "output folder",
        help: "output folder (created if missing)")
    static let thumbSize = Flag(
        name: "size", placeholder: "WxH", kind: .thumbnailSize, summary: "thumbnail size",
        help: "thumbnail size (default 40x40)")
    static let thumbJobs = Flag(
        name: "jobs", short: "j", placeholder: "N", kind: .integer(1...256), summary: "files processed at once",
        help: "files processed at once (default: one per core)")
}

/// `watch`'s own flags; the rest are sync's.
extension Flag {
    static let every = Flag(
        name: "every", placeholder: "DURATION", kind: .duration, summary: "poll each feed this often at most",
        help: "poll each feed this often at most (default 30m; 30s, 10m, 2h, 1d), or as rarely as the feed asks: its "
            + "RSS <ttl>, Cache-Control max-age, Expires or Retry-After, whichever is longest. A few percent of jitter "
            + "keeps watchers started together from polling in step")
    static let watchJSON = Flag(
        name: "json", kind: .toggle, summary: "print one JSON line per round on stdout",
        help: "print one JSON object per round on stdout (round, started_at, seconds, synced, unchanged, failed, gone, "
            + "images_new, images_failed, error, feed_errors, next_at)")
    static let watchVerbose = Flag(
        name: "verbose", short: "v", kind: .toggle, summary: "print each round's sync summary",
        help: "print each round's sync summary, as sync does, besides its line")
    static let watchQuiet = Flag(
        name: "quiet", short: "q", kind: .toggle, summary: "print only errors",
        help: "print only errors: failed feeds and rounds that could not run")
}

/// `config`'s own flag.
extension Flag {
    static let configJSON = Flag(
        name: "json", kind: .toggle, summary: "print the settings as JSON on stdout",
        help: "print the settings as one JSON document on stdout (docs/json.md): each key's value, its source "
            + "(flag, cache, user or built-in) and the file it came from")
}
