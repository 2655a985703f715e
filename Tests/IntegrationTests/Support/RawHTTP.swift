import Foundation

/// A minimal HTTP/1.1 client over a plain socket to 127.0.0.1, so tests can send paths exactly
/// as written (`/../`, `%2e%2e`, `%2f`) that URL types would normalise away.
enum RawHTTP {
    struct Response {
        let status: Int
        /// Lower-cased names.
        let headers: [String: String]
        let body: [UInt8]

        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// `source` is the loopback address the request comes from (all of 127/8 is this machine),
    /// so a test can be two clients; `timeout` is how long to wait for the server's next bytes.
    static func request(port: Int, _ method: String = "GET", _ path: String, headers: [String: String] = [:],
                        from source: String? = nil, timeout: Int = 15) throws -> Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return try exchange(port: port, text + "\r\n", from: source, timeout: timeout)
    }

    /// Sends `request` exactly as written (no `Host` is added) and reads the answer until the
    /// server closes the connection.
    static func exchange(port: Int, _ request: String, from source: String? = nil, timeout: Int = 15) throws -> Response {
        let fd = try connect(port: port, from: source)
        defer { close(fd) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let request = Array(request.utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw ServerError(description: "short write")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    /// A connected TCP socket to 127.0.0.1:port, from `source` when given; `receiveBuffer`
    /// (bytes) keeps the server from sending far ahead of what the caller has read.
    static func connect(port: Int, from source: String? = nil, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw ServerError(description: "cannot bind to \(source): errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw ServerError(description: "cannot connect to 127.0.0.1:\(port): errno \(error)")
        }
        return fd
    }

    private static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0...(max(bytes.count - 4, 0))).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator })
        else { throw ServerError(description: "no HTTP response: \(String(decoding: bytes.prefix(200), as: UTF8.self))") }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw ServerError(description: "bad status line \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}
