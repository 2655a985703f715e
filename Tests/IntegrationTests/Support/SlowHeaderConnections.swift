import Foundation

/// A slowloris from many loopback addresses: each connection sends a request line and then one
/// header line every `lineEvery` seconds, never ending its headers, so it is never idle. One
/// the server closes is opened again at once, as an attacker would, until the value goes away.
final class SlowHeaderConnections: @unchecked Sendable {
    private let port: Int
    private let lock = NSLock()
    private var sockets: [(fd: Int32, source: String)] = []
    private var stopping = false
    private var reopened = 0
    private var worker: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    init(port: Int, sources: [String], perSource: Int, lineEvery: Double) throws {
        self.port = port
        HalfOpenConnections.allowOpenFiles(sources.count * perSource + 256)
        for source in sources {
            for _ in 0..<perSource { sockets.append((try open(from: source), source)) }
        }
        let thread = Thread { [self] in trickle(every: lineEvery) }
        worker = thread
        thread.start()
    }

    deinit {
        lock.withLock { stopping = true }
        if worker != nil { stopped.wait() }
        sockets.forEach { close($0.fd) }
    }

    var count: Int { lock.withLock { sockets.count } }

    /// Connections the server has closed so far (each was opened again).
    var closedByServer: Int { lock.withLock { reopened } }

    private func open(from source: String) throws -> Int32 {
        let fd = try RawHTTP.connect(port: port, from: source)
        send(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
        return fd
    }

    private func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    private func trickle(every interval: Double) {
        defer { stopped.signal() }
        var line = 0
        var lastLine = Date()
        while !lock.withLock({ stopping }) {
            let sendLine = Date().timeIntervalSince(lastLine) >= interval
            if sendLine { (line, lastLine) = (line + 1, Date()) }
            for index in lock.withLock({ sockets.indices }) {
                let (fd, source) = lock.withLock { sockets[index] }
                if Self.isClosed(fd) {
                    close(fd)
                    // A failed reconnect (the listen queue full) is tried again on the next round.
                    let replacement = (try? open(from: source)) ?? -1
                    lock.withLock {
                        sockets[index] = (replacement, source)
                        reopened += 1
                    }
                } else if sendLine {
                    send(fd, "X-Slow-\(line): still sending\r\n")
                }
            }
            usleep(100_000)
        }
    }

    /// End of file, a reset, or no socket at all.
    private static func isClosed(_ fd: Int32) -> Bool {
        guard fd >= 0 else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let read = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return read == 0 || (read < 0 && errno != EAGAIN)
    }
}
