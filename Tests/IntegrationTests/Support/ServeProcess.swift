import Foundation

/// `photomirror serve --port 0` on a cache, started for one test; its URL is the first line it
/// prints on stdout.
final class ServeProcess {
    let server: BackgroundServer
    let port: Int

    /// `launcher` runs the binary (`prlimit --nofile=…` to start it under other limits).
    init(cache: URL, extraArguments: [String] = [], launcher: [String] = []) throws {
        let server = try BackgroundServer(launcher + [Paths.binary.path, "serve", "--cache", cache.path, "--port", "0"]
                                              + extraArguments)
        self.server = server
        var url = ""
        try server.wait {
            url = server.stdout
            return url.hasSuffix("\n")
        }
        guard let port = URLComponents(string: url.trimmingCharacters(in: .whitespacesAndNewlines))?.port else {
            throw ServerError(description: "serve printed no URL: \(url)\n\(server.stderr)")
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() -> Int32 { server.stop() }
}
