import Foundation

/// Scripts/bench.d/delay_proxy.py on a free port of 127.0.0.1 in front of `upstream`: a TCP
/// proxy that holds every chunk `delayMilliseconds` each way (so TLS passes through untouched)
/// and a connection's first an extra round trip, as a distant host's network would.
final class DelayProxy {
    let port: Int
    private let server: BackgroundServer

    init(upstream: Int, delayMilliseconds: Int) throws {
        let script = Paths.scripts.appendingPathComponent("bench.d/delay_proxy.py")
        var lastError: Error?
        for _ in 0..<3 {
            let port = try NginxServer.freePort()
            let server = try BackgroundServer(["python3", script.path, "--listen", String(port),
                                               "--upstream", String(upstream), "--delay-ms", String(delayMilliseconds)])
            do {
                try server.wait {
                    guard let fd = try? RawHTTP.connect(port: port) else { return false }
                    close(fd)
                    return true
                }
                self.port = port
                self.server = server
                return
            } catch {
                server.stop()
                lastError = error
            }
        }
        throw lastError ?? ServerError(description: "the delay proxy did not start")
    }

    deinit { stop() }

    func stop() { server.stop() }
}
