import Foundation
import PhotoMirror

/// `photomirror serve`: the cache as a website on 127.0.0.1 until Ctrl-C or SIGTERM.
struct ServeCommand {
    static let defaultPort = 8080
    let arguments: Arguments

    init(_ words: [String]) throws(UsageError) {
        arguments = try Arguments(words, flags: CommandSpec.serve.flags)
        guard arguments.operands.isEmpty else { throw UsageError("serve takes no operands") }
    }

    func run() async throws(UsageError) -> ExitCode {
        let root = try CacheOption.resolve(arguments)
        let port = arguments.int(.port) ?? Self.defaultPort
        let threads = arguments.int(.threads) ?? 4
        let bind = arguments.last(.bind) ?? "127.0.0.1"
        let requested = ConnectionLimits(perClient: arguments.int(.maxPerClient) ?? ConnectionLimits.defaultPerClient,
                                         total: arguments.int(.maxConnections) ?? ConnectionLimits.defaultTotal)
        guard requested.perClient < requested.total else {
            throw UsageError("--max-per-client must be below --max-connections, or one client can take every connection")
        }
        // A client that hangs up mid-file must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        let (stopRequests, stopRequested) = AsyncStream<Void>.makeStream()
        let signals = SignalWatcher { stopRequested.yield() }
        let quiet = arguments.has(.serveQuiet)
        let openFiles = OpenFileLimit.raise(to: requested.openFilesNeeded)
        let limits = requested.fitting(openFiles: openFiles)
        if limits.total < requested.total, !quiet {
            Output.err("photomirror: serving at most \(limits.total) connections at once: the open-file limit "
                + "(ulimit -n) is \(openFiles)\n")
        }
        let server: StaticServer, flusher: AccessFlusher
        do {
            try StoreSetting.requireFolderStore(cacheRoot: root)
            let site = try StaticSite(root: root)
            // Served originals and thumbnails count as used for prune, written in batches off
            // the request path; a read-only or older cache is served all the same.
            let accesses = AccessRecorder(cacheRoot: site.root) { note in
                if !quiet { Output.err("photomirror: \(note)\n") }
            }
            server = try StaticServer(site: site, bindAddress: bind, port: port, threads: threads,
                                  limits: limits, accesses: accesses)
            flusher = AccessFlusher(recorder: accesses)
        } catch {
            Output.err("photomirror: \(error)\n")
            return .cacheFailed
        }
        let host = bind.contains(":") ? "[\(bind)]" : bind
        let url = "http://\(host):\(server.port)/"
        // The URL alone on stdout, for scripts that start the server on port 0.
        Output.out(url + "\n")
        if !quiet { Output.err("serving \(root) at \(url) (Ctrl-C stops)\n") }
        for await _ in stopRequests { break }
        server.stop()
        // After the server: no request can add to the last batch.
        await flusher.stop()
        if !quiet {
            Output.err("stopped on \(signals.receivedSignal == SIGINT ? "SIGINT" : "SIGTERM")\n")
        }
        return .ok
    }
}
