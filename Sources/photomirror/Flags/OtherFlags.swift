/// Flags of one command each: sync's output, serve, thumb, feed.
extension Flag {
    static let verbose = Flag(
        name: "verbose", kind: .toggle, summary: "print one line per item",
        help: "print one line per item")
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
    static let serveQuiet = Flag(
        name: "quiet", kind: .toggle, summary: "print only the URL and errors",
        help: "print only the URL and errors")

    static let output = Flag(
        name: "output", short: "o", placeholder: "DIR", kind: .directory, summary: "output folder",
        help: "output folder (created if missing)")
    static let thumbSize = Flag(
        name: "size", placeholder: "WxH", kind: .thumbnailSize, summary: "thumbnail size",
        help: "thumbnail size (default 40x40)")
    static let thumbJobs = Flag(
        name: "jobs", placeholder: "N", kind: .integer(1...256), summary: "files processed at once",
        help: "files processed at once (default: one per core)")
}
