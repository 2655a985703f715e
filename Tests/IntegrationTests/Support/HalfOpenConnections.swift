import Foundation

/// A slowloris: connections from one loopback address that each send half a request and never
/// finish it, held open until the value goes away.
final class HalfOpenConnections {
    private var sockets: [Int32] = []

    init(count: Int, port: Int, from source: String) throws {
        Self.allowOpenFiles(count + 256)
        for _ in 0..<count {
            let fd = try RawHTTP.connect(port: port, from: source)
            sockets.append(fd)
            // The server may already have closed a connection over its limit; that is for
            // `closedByServer` to see, not an error here.
            let partial = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: slow".utf8)
            _ = partial.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    deinit { sockets.forEach { close($0) } }

    var count: Int { sockets.count }

    /// How many of them the server has closed (end of file or reset), looking without waiting.
    func closedByServer() -> Int {
        var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 0) >= 0 else { return 0 }
        return polled.filter { entry in
            guard entry.revents != 0 else { return false }
            var byte: UInt8 = 0
            let read = recv(entry.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            return read == 0 || (read < 0 && errno != EAGAIN)
        }.count
    }

    /// Polls until `ready` holds for the number closed, or `limit` seconds have passed, doing
    /// `meanwhile` between looks; returns the last count. What is awaited is the server's doing,
    /// not a time.
    func waitForClosed(upTo limit: Double, meanwhile: () -> Void = {}, until ready: (Int) -> Bool) -> Int {
        let deadline = Date().addingTimeInterval(limit)
        var closed = closedByServer()
        while !ready(closed), Date() < deadline {
            meanwhile()
            usleep(20_000)
            closed = closedByServer()
        }
        return closed
    }

    /// Raises this process's soft open-file limit to `needed` when the hard limit allows.
    static func allowOpenFiles(_ needed: Int) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(needed) else { return }
        limit.rlim_cur = min(rlim_t(needed), limit.rlim_max)
        setrlimit(resource, &limit)
    }
}
