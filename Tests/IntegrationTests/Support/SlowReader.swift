import Foundation

/// A client that downloads a big file at a trickle: always making progress, far slower than
/// the server can send. Single-threaded: `readDue` takes what is due by now, without waiting.
final class SlowReader {
    private let fd: Int32
    private let bytesPerSecond: Int
    private let started = Date()
    let serverPort: Int
    let localPort: Int
    private(set) var received = 0

    init(port: Int, path: String, from source: String, bytesPerSecond: Int) throws {
        let fd = try RawHTTP.connect(port: port, from: source, receiveBuffer: 4096)
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        (self.fd, self.bytesPerSecond, serverPort) = (fd, bytesPerSecond, port)
        localPort = Int(UInt16(bigEndian: local.sin_port))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            close(fd)
            throw ServerError(description: "short write")
        }
    }

    deinit { close(fd) }

    var secondsReading: Double { Date().timeIntervalSince(started) }

    func readDue() {
        var due = Int(secondsReading * Double(bytesPerSecond)) - received
        var buffer = [UInt8](repeating: 0, count: 4096)
        while due > 0 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(due, $0.count), Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            received += count
            due -= count
        }
    }

    /// Whether the server's end of the connection is still open, as the kernel sees it: a server
    /// that gave up on it has closed its socket, even while the bytes it had already queued
    /// still trickle in here.
    var serverStillHoldsIt: Bool {
        LoopbackTCP.isEstablished(localPort: serverPort, remotePort: localPort)
    }
}

/// This machine's IPv4 TCP sockets, from /proc/net/tcp.
enum LoopbackTCP {
    static func isEstablished(localPort: Int, remotePort: Int) -> Bool {
        // Read to the end: /proc files claim a size of 0, and the table is long under a slowloris.
        guard let bytes = FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() else { return false }
        let table = String(decoding: bytes, as: UTF8.self)
        let local = String(format: ":%04X", localPort), remote = String(format: ":%04X", remotePort)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[2].hasSuffix(remote) && fields[3] == "01"
        }
    }
}
